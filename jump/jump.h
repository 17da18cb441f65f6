/*
 * jump/jump.h: jump-patched instruction probes, the cheap path of the
 * instruction-probe engine (inst/).
 *
 * A breakpoint costs the traced thread a trap and, in user space, a
 * signal's round trip.  A site whose first instructions can be moved
 * elsewhere has them replaced by a direct jump instead: to a trampoline
 * that saves the thread's registers, calls the port's entry function
 * (which fires the site's probes with inst_jump_fire), restores them, runs
 * a copy of the replaced instructions and jumps back after them (the ISA
 * half: isa.h "Jump-patched probes").  The breakpoint stays the fallback
 * for every site this refuses, and the first thing written and the last
 * thing removed, so that a thread never meets half a jump:
 *
 *   arm      breakpoint in place (inst/), trampoline written, then: no
 *            thread inside the replaced bytes (the port says so, or moves
 *            any there into the copy; one that traps at the breakpoint
 *            resumes in the copy), the jump's tail bytes, serialise, the
 *            jump's first byte.
 *   disarm   the breakpoint over the jump's first byte, serialise, the
 *            original tail bytes, serialise; inst/ then writes the first
 *            byte back, or leaves the breakpoint.
 *
 * A site is taken when it carries entry probes only, its replaced
 * instructions are neither branches, calls, returns, traps nor
 * PC-relative, no other site lies among them, and no direct branch,
 * call or jump anywhere in the text around it (the executable range the
 * port names, scanned once per space and range) lands inside them: hand-
 * written code enters functions a few bytes in (glibc's mempcpy jumps
 * into memmove).  A branch through a register cannot be checked: a
 * function entry is never such a target in compiled code.
 *
 * OS-neutral and freestanding like inst/ (this directory reads inst/'s
 * site tables through inst_impl.h); it needs a decoder (isa_insn_decode)
 * and the port's jump_port_t.  Never probe context: it runs where inst/
 * makes and arms sites, under the same serialisation.
 */
#ifndef DTRACE_JUMP_JUMP_H
#define DTRACE_JUMP_JUMP_H

#include <stddef.h>
#include <stdint.h>

#include "inst.h"

typedef struct jump_port {
	/* len bytes of trampoline memory a jump at `near` reaches
	 * (isa_jump_reach): *run is the address the space executes it at,
	 * *write the one dtrace_port_text_write(as, ...) writes it through. */
	int (*jp_tramp)(void *as, uintptr_t near, size_t len, uintptr_t *run, uintptr_t *write);
	/* The function a trampoline of this space calls (entry(frame, site));
	 * 0 if the space has none. */
	uintptr_t (*jp_entry)(void *as);
	/* 0 when no thread of the space is, or can come, among (lo, hi) but
	 * through the site's breakpoint, and every thread's instruction fetch
	 * is serialised; or an error, and nothing is jumped now.  A port
	 * that can stop threads may move one found there to to + (pc - lo);
	 * the Linux host refuses while another thread runs. */
	int (*jp_quiesce)(void *as, uintptr_t lo, uintptr_t hi, uintptr_t to);
	/* Serialise every thread's instruction fetch after a text write. */
	int (*jp_sync)(void *as);
	/* The executable range [*lo, *hi) holding addr whose direct branches
	 * are checked (a module's text). */
	int (*jp_text)(void *as, uintptr_t addr, uintptr_t *lo, uintptr_t *hi);
} jump_port_t;

/* Take over inst/'s jump hooks (inst_set_jump); the port stays the
 * caller's.  jump_fini gives them back and frees the scans. */
int jump_init(const jump_port_t *port);
void jump_fini(void);

/* The text of space `key` changed (an object loaded or unloaded) or the
 * space is gone: forget its scans (the next arm scans again). */
void jump_space_forget(uint64_t key);

#endif
