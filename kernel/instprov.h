/*
 * kernel/instprov.h: the fbt and kinst providers of a kernel, on the
 * instruction-probe engine (inst/), and what a kernel port gives them.
 *
 * The providers are OS-neutral and freestanding (kernel/prov_fbt.c,
 * kernel/prov_kinst.c, kernel/instprov.c): they find functions with
 * dtrace_port_module_iter(NULL)/dtrace_port_symbol_iter(), read and decode
 * them with the ISA (isa.h "Instruction probes", and
 * kernel/instprov_<isa>.c for how compiled code on that ISA sets up a
 * frame), make sites and probes with the engine, and patch text with
 * dtrace_port_text_write().  A port supplies the rest in instprov_conf_t
 * and routes its breakpoint trap here:
 *
 *   - INSTPROV_STEP_ENGINE (FreeBSD, NetBSD): the port's breakpoint hook
 *     calls instprov_trap() with the trap frame as isa_regs_t and, when it
 *     returns INST_TRAP_DONE, resumes the thread with the registers as the
 *     engine left them: the instruction was emulated or the PC sent to its
 *     trampoline.  An emulated push or call writes just below the
 *     interrupted stack pointer, where a kernel's trap frame may lie: the
 *     port must resume from a copy (FreeBSD amd64: md_x86_64_invop.S).
 *   - INSTPROV_STEP_KERNEL (illumos): the kernel's trap code carries out the
 *     instruction itself, choosing what to emulate by the answer of its
 *     dtrace_invop() hook (DTRACE_INVOP_PUSHL_EBP, _LEAVE, _NOP, _RET on
 *     amd64).  The port says with ic_accept which prepared instructions it
 *     can answer for; no other site is made (a return probe keeps the
 *     return sites it can take).  Its hook calls instprov_fire() and maps
 *     the instruction it returns to the kernel's code.
 *
 * Probe names.  fbt:<module>:<function>:entry on the first instruction and
 * :return on every return site the ISA reports (returns, and tail-call
 * jumps out of the function), arg0 of return the site's offset and arg1 the
 * return value, as DTrace's fbt; kinst:<module>:<function>:<offset> on any
 * instruction boundary, the offset in DECIMAL as FreeBSD's kinst names it,
 * made when a description asks for it (kinst::vm_fault:12; an empty or
 * glob name asks for every instruction of the function), arguments the
 * argument registers at that instruction.  The module is dpm_name.
 *
 * Left alone: modules ic_module_ok refuses (the module holding DTrace and
 * those that depend on it), functions named by instprov_excluded() (DTrace's
 * own, the debugger's, the memory functions probe context calls, and the
 * port's list), functions that do not set up a frame as compiled code of the
 * ISA does (hand-written trap and interrupt entry points), and functions
 * the decoder cannot follow to their end.
 *
 * Context.  instprov_trap() and instprov_fire() run in probe context (the
 * trap handler, interrupts off); everything else outside it, never with a
 * core lock held.
 */
#ifndef DTRACE_KERNEL_INSTPROV_H
#define DTRACE_KERNEL_INSTPROV_H

#include "dtrace.h"
#include "inst.h"
#include "isa.h"

typedef enum instprov_step {
	INSTPROV_STEP_ENGINE, /* the port resumes with the engine's registers */
	INSTPROV_STEP_KERNEL, /* the kernel's trap code carries the instruction out */
} instprov_step_t;

typedef struct instprov_conf {
	instprov_step_t ic_step;
	/* INSTPROV_STEP_KERNEL: can the kernel carry out pi at addr? */
	bool (*ic_accept)(uintptr_t addr, const isa_probe_insn_t *pi);
	/* INSTPROV_STEP_ENGINE: how many bytes below the interrupted stack
	 * pointer the port's breakpoint path leaves free (SIZE_MAX when it
	 * resumes from a copy of the registers); an instruction whose
	 * emulation stores lower (instprov_isa_stack_write) gets no probe. */
	size_t ic_stack_gap;
	/* May fbt and kinst instrument this module at all? */
	bool (*ic_module_ok)(const dtrace_port_module_t *mod);
	/* Keep a module (its dpm_port) loaded while one of its probes is
	 * enabled (delta +1) and let it go (-1): the kernel's own count
	 * (FreeBSD lf->nenabled, illumos mod_nenabled).  May be NULL. */
	void (*ic_module_hold)(void *dpm_port, int delta);
	/*
	 * For a kernel that tells of no module's unload (NetBSD 7.99): keep a
	 * module loaded while fbt or kinst has any probe in it.  pin before
	 * the first probe is made in mod (non-zero: the module gets no probe,
	 * and the providers log why); unpin after the last one is destroyed,
	 * its sites forgotten first.  Never in probe context, never with the
	 * providers' lock (ic_lock) held: pin from a provider's walk, in the
	 * port's dtrace_port_module_iter() callback before the module's
	 * symbols are walked (so under whatever lock that iteration holds,
	 * the module cannot go meanwhile, and under the core's provider lock,
	 * as dtps_provide is); unpin from the end of such a walk that made no
	 * probe, or from dtps_destroy with no core lock held (the core
	 * condensing or unregistering, instprov_fini()).  Both or neither.
	 */
	int (*ic_module_pin)(const dtrace_port_module_t *mod);
	void (*ic_module_unpin)(const dtrace_port_module_t *mod);
	/* Kernel functions the port's trap path and probe context call,
	 * beyond instprov_excluded()'s own: names, or prefixes written with a
	 * trailing '*'; NULL-terminated, or NULL. */
	const char *const *ic_exclude;
	/* The current thread's engine state, for trampolines that end with a
	 * breakpoint (isa.h pi_tramp_bp); NULL: such sites are refused. */
	inst_thread_t *(*ic_thread)(void);
	/* The providers' lock (a kernel lock that may sleep), never held
	 * across a call into the core. */
	void (*ic_lock)(bool take);
} instprov_conf_t;

/* After dtrace_init(): the engine's tables, then fbt and kinst registered.
 * Returns 0 or an error (nothing is left registered). */
int instprov_init(const instprov_conf_t *conf);

/*
 * At unload: unregister fbt and kinst (DTRACE_EBUSY, with nothing changed,
 * while a consumer is open), write back the original bytes of every site,
 * wait until no CPU is in the trap path, free the tables.  Trampoline
 * memory stays (a thread may still be in one).
 */
int instprov_fini(void);

/* A module was loaded: probes that enabled descriptions ask of it are made
 * and enabled. */
void instprov_module_loaded(const dtrace_port_module_t *mod);
/* A module is about to be unloaded: DTRACE_EBUSY while one of its probes is
 * enabled; otherwise its sites are forgotten (never written again) and its
 * probes destroyed. */
int instprov_module_unloading(const dtrace_port_module_t *mod);

/*
 * The breakpoint hook (INSTPROV_STEP_ENGINE), probe context.  *regs is the
 * trap frame with the PC as the trap reported it.  INST_TRAP_NONE: not
 * ours, *regs untouched (a debugger's breakpoint: the port passes it on).
 * INST_TRAP_DONE: resume with *regs.  INST_TRAP_FAULT: emulating the
 * instruction faulted at *fault_addr (a push onto a bad stack): *regs is
 * as the trap left it, and the port lets the kernel handle the trap as it
 * would an unknown breakpoint.
 */
int instprov_trap(isa_regs_t *regs, uintptr_t *fault_addr);

/*
 * The whole breakpoint route of an INSTPROV_STEP_ENGINE port, probe
 * context: the port's hook calls it with the trapped registers and the
 * calling CPU's slot behind kern_trap_regs() (stack() and arguments read
 * them there meanwhile; a breakpoint nested in the handler finds the
 * outer one restored).  True when the breakpoint was a probe's: resume
 * with *regs.  False: not ours, or emulation faulted; the port hands the
 * trap to the kernel as an unknown breakpoint.
 */
bool instprov_breakpoint(isa_regs_t *regs, const isa_regs_t **slot);

/* The breakpoint hook (INSTPROV_STEP_KERNEL), probe context: fire the
 * probes of the site at addr (the instruction's own address) and return
 * its prepared instruction, or NULL when addr is no site of ours. */
const isa_probe_insn_t *instprov_fire(uintptr_t addr, isa_regs_t *regs);

/* ---- Shared by the providers (kernel/instprov.c) ---------------------- */

/* Is function `name` one the providers leave alone? */
bool instprov_excluded(const char *name);
/* May the providers instrument this module (the port's ic_module_ok)? */
bool instprov_module_ok(const dtrace_port_module_t *mod);

/*
 * How compiled code on this ISA sets up a frame (kernel/instprov_<isa>.c):
 * the offset in code[0..size) of the instruction that does it, the one
 * DTrace's fbt on this ISA looks for (x86_64: push %rbp; aarch64: stp with
 * pre-index or sub of sp; riscv: sd/c.sdsp of ra to sp), or -1 when the
 * function has none: hand-written entry points (trap and interrupt
 * vectors), which the providers leave alone.
 */
long instprov_isa_frame(const uint8_t *code, size_t size);

/* How far below the interrupted stack pointer the ISA's emulation of pi
 * stores (x86_64 push and call: 8; aarch64 stp through sp; riscv sd through
 * sp): 0 if it stores nothing there (kernel/instprov_<isa>.c). */
size_t instprov_isa_stack_write(const isa_probe_insn_t *pi);

/* A function's text, read and checked: frame set up, decodable to its end.
 * On success *textp holds size bytes the caller frees with
 * dtrace_port_free(*textp, size). */
int instprov_func_text(uintptr_t addr, size_t size, uint8_t **textp);

/*
 * The module records (instprov.c).  A provider's walk of one module's
 * symbols is bracketed by instprov_module_begin() (its record, made if
 * new, and the module pinned if it had no probe: an error leaves the
 * module alone) and instprov_module_end(); each probe the walk makes is
 * counted by instprov_probe_made(fp, record) with the lock held (fbt
 * through inst_func_req_t ifr_made), and instprov_probe_destroy() lets
 * go of it.
 */
typedef struct instprov_mod instprov_mod_t;
int instprov_module_begin(const dtrace_port_module_t *mod, instprov_mod_t **mp);
/* With pins: has mod no probe (a walk would pin it)? */
bool instprov_module_unpinned(const dtrace_port_module_t *mod);
void instprov_module_end(instprov_mod_t *m);
void instprov_probe_made(inst_fprobe_t *fp, void *m);
void instprov_lock(bool take);
/* Enable and disable one probe over the engine, holding its module;
 * destroy one, counting it out of its module's record. */
int instprov_probe_enable(inst_fprobe_t *fp);
void instprov_probe_disable(inst_fprobe_t *fp);
void instprov_probe_destroy(inst_fprobe_t *fp);

/* The two providers (prov_fbt.c, prov_kinst.c). */
int instprov_fbt_register(void);
int instprov_fbt_unregister(void);
dtrace_provider_id_t instprov_fbt_id(void);
int instprov_kinst_register(void);
int instprov_kinst_unregister(void);
dtrace_provider_id_t instprov_kinst_id(void);

/* Largest function the providers read (larger "functions" are data). */
#define INSTPROV_FUNC_MAXSIZE ((size_t)1 << 20)

#endif /* DTRACE_KERNEL_INSTPROV_H */
