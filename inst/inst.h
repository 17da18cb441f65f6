/*
 * inst/inst.h: the instruction-probe engine.
 *
 * One mechanism serves pid probes in a Linux process, fbt in a kernel and
 * kinst-style probes on any instruction: a probe SITE is an instruction in
 * some address space whose first bytes are replaced by the ISA's
 * breakpoint while any of its probes is enabled.  When the breakpoint
 * traps, the port hands the trap to inst_trap(), which fires the site's
 * probes and then makes the thread go on as if the original instruction had
 * run: emulated in place or executed out of line in a trampoline (the ISA
 * half, isa/isa.h "Instruction probes", decides which).
 *
 * Like the core, this directory is freestanding and OS-neutral: it sees
 * the OS only through core/port.h (text read/write, trampoline memory,
 * allocation) and the processor only through isa/isa.h.
 *
 * Address spaces.  A site lives in the space named by a port-chosen KEY
 * (the Linux host uses the traced process's pid; a kernel uses 0) and is
 * patched through the port's handle `as` for that space (NULL: the
 * caller's own).  Keys make probe-context lookups independent of handles,
 * which mean something only to the process that created them.
 *
 * Memory.  Sites come from dtrace_port_zalloc(), so on a host whose probes
 * fire in other processes (the Linux agents) every process that maps the
 * port's memory can read them, and none but the creator can write them:
 * the trap path only reads sites (its per-thread state is the caller's
 * inst_thread_t).  Sites are never freed while the engine is
 * up: a thread may be stopped between its trap and the lookup, or inside a
 * trampoline, long after its probe went away.
 *
 * Context.  inst_trap() and inst_tramp_trap() run in probe context (a trap
 * handler): no allocation, no lock, bounded loops.  Everything else runs
 * outside probe context, serialised by the caller (a provider holds its own
 * lock or the core's PROVIDER lock), and may sleep.
 */
#ifndef DTRACE_INST_INST_H
#define DTRACE_INST_INST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtrace.h"
#include "isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of probe a site carries, in the order they fire. */
typedef enum inst_kind {
	INST_ENTRY,  /* first instruction of a function: arguments as passed */
	INST_OFFSET, /* any instruction boundary: arguments as at entry */
	INST_RETURN, /* a return site: arg0 its offset in the function, arg1 the value */
	INST_USDT,   /* a statically defined probe: arguments from its recipe
		      * (inst_site_add_usdt) */
	INST_ISENABLED, /* an is-enabled site: while enabled, the instruction is
			 * skipped and the return-value register reads 1 */
	INST_HOOK,   /* not a D probe: the port's hook (inst_set_hook) runs */
} inst_kind_t;

/* The id a hook takes on its site (no probe has it). */
#define INST_HOOK_ID ((dtrace_id_t)0xffffffffU)

/* Probes one instruction can carry (aliases of a function, offset and
 * return probes of the same instruction). */
#define INST_SITE_MAXPROBES 8

typedef struct inst_site inst_site_t;

/* ---- The engine's life (outside probe context) ------------------------- */

/* Set up the site tables (nbuckets rounded up to a power of two; 0: a
 * default).  In the process that owns the probes. */
int inst_init(uint32_t nbuckets);
/* Tear down: every site must have been disabled (inst_space_forget or
 * inst_site_disable of each probe).  Frees everything. */
void inst_fini(void);
/* The pointer a second process needs to look sites up (see dtrace_attach
 * in core/dtrace.h: the same scheme), and how it adopts it. */
void *inst_handle(void);
int inst_attach(void *handle);

/* ---- Sites and their probes (outside probe context) -------------------- */

/*
 * The site at addr in space (key, as), made on first use: the instruction
 * is read with dtrace_port_text_read(as, ...) and prepared by the ISA; a
 * trampoline, when it needs one, is allocated and written now.  Returns 0,
 * DTRACE_EINVAL if no probe may be placed there, or the port's error.
 */
int inst_site_get(void *as, uint64_t key, uintptr_t addr, inst_site_t **sitep);

/*
 * A port whose KERNEL carries out the probed instruction after the probes
 * fired (illumos: the #BP/#UD path emulates what dtrace_invop() answers,
 * see inst_fire) says which prepared instructions it can take; the others
 * make inst_site_get() fail with DTRACE_ENOTSUP, and a return probe leaves
 * such sites out (inst_func_probes).  NULL (the default): every instruction
 * the ISA prepares.  Set once, before any site is made.
 */
typedef bool (*inst_accept_fn_t)(uintptr_t addr, const isa_probe_insn_t *pi);
void inst_set_accept(inst_accept_fn_t fn);

/* Attach probe `id` of kind `kind` to a site; `func` is the address of the
 * function it belongs to (return probes report addr - func).  DTRACE_ENOSPC
 * when the site already carries INST_SITE_MAXPROBES probes. */
int inst_site_add_probe(inst_site_t *site, dtrace_id_t id, inst_kind_t kind, uintptr_t func);
/* Detach it (disabled first if it was enabled). */
void inst_site_remove_probe(inst_site_t *site, dtrace_id_t id);

/*
 * Statically defined probes (USDT: SystemTap's notes, DTrace's -G sites).
 * Where each argument is at the probe's instruction is a recipe the
 * provider works out from the object's description of the site; probe
 * context follows it with the trapped registers and nofault loads, and
 * truncates and extends the value as the argument's size and sign say.
 * Registers are isa_regs_t indices (isa_regs.h).
 */
#define INST_ARGS_MAX 12      /* SystemTap allows 12, DTrace's -G 10 */
#define INST_ARG_NOREG 0xff

typedef enum inst_arg_kind {
	INST_ARG_NONE,	/* unknown location: reads 0 */
	INST_ARG_CONST, /* ia_disp itself */
	INST_ARG_REG,	/* a register, or the part of it ia_regbytes/ia_shift say */
	INST_ARG_MEM,	/* at ia_disp + base + index * scale */
} inst_arg_kind_t;

typedef struct inst_arg {
	uint8_t ia_kind;     /* inst_arg_kind_t */
	uint8_t ia_size;     /* the argument's bytes: 1, 2, 4 or 8 */
	uint8_t ia_signed;   /* sign-extend from ia_size */
	uint8_t ia_base;     /* register, or INST_ARG_NOREG */
	uint8_t ia_index;    /* register, or INST_ARG_NOREG (INST_ARG_MEM) */
	uint8_t ia_scale;    /* 1, 2, 4 or 8 (INST_ARG_MEM) */
	uint8_t ia_regbytes; /* INST_ARG_REG: bytes of the register named (x86 %eax: 4) */
	uint8_t ia_shift;    /* INST_ARG_REG: its lowest bit (x86 %ah: 8) */
	int64_t ia_disp;
} inst_arg_t;

typedef struct inst_args {
	uint32_t ia_nargs;
	inst_arg_t ia_arg[INST_ARGS_MAX];
} inst_args_t;

/* Attach probe `id` to a site as kind INST_USDT with a copy of `args`
 * (made in engine memory, kept until inst_fini: a thread may be reading
 * it), or as INST_ISENABLED (args NULL).  Errors as inst_site_add_probe,
 * DTRACE_EINVAL for a bad recipe. */
int inst_site_add_usdt(inst_site_t *site, dtrace_id_t id, inst_kind_t kind,
		       const inst_args_t *args);

/* One argument's value (probe context: the trap path uses it). */
uint64_t inst_arg_value(const inst_arg_t *arg, const isa_regs_t *regs);

/* Arm and disarm one probe: the breakpoint is written when the site's first
 * probe is enabled and the original bytes put back when its last is
 * disabled. */
int inst_probe_enable(inst_site_t *site, dtrace_id_t id);
void inst_probe_disable(inst_site_t *site, dtrace_id_t id);

/* The address of a site's instruction. */
uintptr_t inst_site_addr(const inst_site_t *site);

/*
 * Every site of space `key`, for a process that is going or changing:
 *   inst_space_restore writes back the original bytes of each patched site
 *     through `as` (the Linux agent passes NULL to mend its own text when
 *     the consumer died) and, when `shared`, marks them unpatched; a forked
 *     child mending its private copy of the parent's text passes false,
 *     since the sites still describe the parent, and so does a process
 *     that maps the tables read-only (a Linux agent: dtrace_port_zalloc
 *     memory is read-only to it).  Returns the first error, after trying
 *     all.
 *   inst_space_forget marks them unpatched and detaches their probes
 *     without writing (the space is gone: exit or exec).
 * The sites stay in the tables (see "Memory" above) but match nothing.
 */
int inst_space_restore(uint64_t key, void *as, bool shared);
void inst_space_forget(uint64_t key);
/* Forget the sites of `key` whose address `mapped` says is gone (an
 * object was unloaded): they are never written again, even if other text
 * comes to live at their address. */
void inst_space_prune(uint64_t key, bool (*mapped)(uintptr_t addr, void *arg), void *arg);

/*
 * Jump-patched sites (jump/, which sets these).  A site whose breakpoint
 * is in place may be armed further: its first instructions replaced by a
 * jump to a trampoline that fires the probes without a trap
 * (inst_jump_fire) and runs a copy of what the jump replaced.  While a
 * site has such a copy (is_jcopy in inst_impl.h), a thread that traps at
 * its breakpoint resumes in the copy, so no thread is left inside the
 * replaced bytes once the port has moved those already there.
 *   ijo_arm:    after the breakpoint of a site's first enabled probe is
 *               written: replace it with the jump if the site allows;
 *   ijo_disarm: the site is jumped and about to have its original bytes
 *               written back, or another site is being made inside the
 *               replaced bytes: put the breakpoint back in the jump's
 *               place and the rest of the original bytes, leaving the
 *               site patched by its breakpoint alone.
 * Outside probe context, under the caller's serialisation.  NULL: no site
 * is ever jumped.
 */
typedef struct inst_jump_ops {
	void (*ijo_arm)(inst_site_t *site);
	void (*ijo_disarm)(inst_site_t *site);
} inst_jump_ops_t;
void inst_set_jump(const inst_jump_ops_t *ops);

/* ---- The probes of a function (inst_func.c; outside probe context) ------ */

/* One function-level probe: its sites (one for entry and offset probes,
 * every return site for `return`).  The provider's per-probe argument. */
typedef struct inst_fprobe {
	dtrace_id_t ifp_id;
	inst_kind_t ifp_kind;
	bool ifp_enabled;
	size_t ifp_nsites;
	inst_site_t **ifp_sites; /* ifp_nsites of them */
	void *ifp_owner;         /* the provider's; NULL when made, never read here */
} inst_fprobe_t;

/* A function the provider has matched: where it is and what to call it. */
typedef struct inst_func_req {
	dtrace_provider_id_t ifr_prov;
	void *ifr_as;
	uint64_t ifr_key;
	const char *ifr_mod;  /* probe module name */
	const char *ifr_func; /* probe function name */
	uintptr_t ifr_addr;   /* the function's address in the space */
	size_t ifr_size;      /* and its size (from the symbol) */
	/* The provider's lock over the engine's tables, taken around each
	 * change to them and never across a call into the core (which may
	 * call the provider back): NULL if the caller serialises alone. */
	void (*ifr_lock)(bool take);
	/* Told of each new probe once it has its sites, with ifr_lock held
	 * (not of one found or moved): a provider counting its probes
	 * (kernel/instprov.c, per module).  May be NULL. */
	void (*ifr_made)(inst_fprobe_t *fp, void *arg);
	void *ifr_made_arg;
} inst_func_req_t;

/* Why a name made no probe, in the terms of DTrace's pid errors. */
typedef enum inst_func_err {
	INST_FUNC_OK,
	INST_FUNC_BADNAME,   /* not entry, return, a hex offset or a glob */
	INST_FUNC_OUTSIDE,   /* offset at or past the function's end */
	INST_FUNC_ALIGN,     /* offset not on an instruction boundary */
	INST_FUNC_UNDECODED, /* return sites unknown: the text did not decode */
} inst_func_err_t;

/*
 * Create the probes that probe name `name` (entry, return, a hex offset,
 * or a glob over those) asks of the function rq describes (a return site
 * the port refuses, inst_set_accept, is left out; with none left there is
 * no return probe and the error is DTRACE_ENOTSUP); probes that
 * already exist are kept, but one whose sites all went with an unloaded
 * object (inst_space_prune) moves to the function's new sites, armed if
 * it was.  Returns 0, or an error with *why saying what
 * was wrong with the name (INST_FUNC_OK for the port's own errors).
 */
int inst_func_probes(const inst_func_req_t *rq, const char *name, inst_func_err_t *why);

/*
 * One probe, `name` of kind `kind`, over the sites addrs[0..n) of the
 * function rq describes: made, found, or moved as inst_func_probes() does
 * (a refused return site is left out the same way), for a provider that
 * picks a function's sites by rules of its own (the kernel's fbt).
 */
int inst_func_probe(const inst_func_req_t *rq, const char *name, inst_kind_t kind,
		    const uintptr_t *addrs, size_t n);

/* A provider's dtps_enable/disable/destroy for these probes. */
int inst_fprobe_enable(inst_fprobe_t *fp);
void inst_fprobe_disable(inst_fprobe_t *fp);
void inst_fprobe_destroy(inst_fprobe_t *fp);

/* ---- Probe context ------------------------------------------------------- */

/*
 * Per-thread state a port keeps for the engine (kernel: in the thread
 * structure; Linux host: initial-exec TLS): the values saved by
 * isa_probe_step() while the thread runs a trampoline that ends with a
 * breakpoint.  Nested only by signal handlers or interrupts that hit
 * another such probe, hence the small fixed depth.
 */
#define INST_THREAD_DEPTH 8
typedef struct inst_thread {
	uint32_t it_depth;
	struct {
		uintptr_t its_bp;   /* address of the closing breakpoint */
		uintptr_t its_site; /* the probed instruction's address */
		uint64_t its_save;
	} it_saved[INST_THREAD_DEPTH];
	/* While an INST_USDT probe fires: its arguments (it_nargs of them),
	 * for the port's dtrace_port_getarg() past the five dtrace_probe()
	 * passes; NULL otherwise. */
	const uint64_t *it_args;
	uint32_t it_nargs;
	/* Non-zero while an INST_ENTRY or INST_RETURN probe fires: the
	 * function has no frame (not yet, or no more), its caller is in the
	 * return-address register or slot (isa_regs_entry_caller), which a
	 * port's stack walk may need. */
	uint32_t it_noframe;
} inst_thread_t;

/*
 * A port's own use of a site (INST_HOOK; the Linux agent hears of library
 * loads at the dynamic linker's breakpoint this way).  The hook is this
 * process's function, set in each process that traps: it runs in probe
 * context's place (the trap handler, with no probe context entered) before
 * the instruction is stepped, and may change *regs only as the
 * instruction's own effect would not.
 */
typedef void (*inst_hook_fn_t)(uint64_t key, uintptr_t addr, isa_regs_t *regs);
void inst_set_hook(inst_hook_fn_t fn);

/* inst_trap() and inst_tramp_trap() results. */
#define INST_TRAP_NONE 0  /* not a site of ours: the port passes the trap on */
#define INST_TRAP_DONE 1  /* handled: resume with *regs */
#define INST_TRAP_FAULT 2 /* the emulated instruction faulted at *fault_addr */

/*
 * A breakpoint trapped at `addr` in space `key` with the interrupted
 * registers *regs (the port has published them for uregs[], ustack() and
 * arguments).  Fires the site's enabled probes in kind order and steps
 * the instruction.  A site whose breakpoint was just removed still steps
 * correctly; a trap at an address with no site is INST_TRAP_NONE, and the
 * port should re-execute the address if its text no longer holds a
 * breakpoint (a probe removed between the trap and the lookup).
 */
int inst_trap(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr,
	      uintptr_t *fault_addr);

/*
 * The same step without firing anything (no probe, no hook, an is-enabled
 * site reads as off): for a thread the site's probes must not see, such as
 * a Linux vfork child, which runs on its parent's memory and text until it
 * execs and would otherwise fire as its parent.
 */
int inst_step(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr,
	      uintptr_t *fault_addr);

/*
 * For a kernel that carries out the instruction itself (inst_set_accept):
 * fire the enabled probes of the site at `addr` as inst_trap() does, but
 * leave *regs alone; returns the site's prepared instruction, from which
 * the port answers its kernel's protocol, or NULL when `addr` is no site.
 */
const isa_probe_insn_t *inst_fire(uint64_t key, uintptr_t addr, isa_regs_t *regs);

/*
 * Probe context, but no trap: a jump-patched site's trampoline called the
 * port with the thread's registers at `addr` (isa_jump_frame_regs): fire
 * the site's enabled probes as inst_trap() does.  The trampoline carries
 * out the replaced instructions itself.  Returns INST_TRAP_NONE if addr is
 * no site (a trampoline whose site was forgotten), INST_TRAP_DONE
 * otherwise.
 */
int inst_jump_fire(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr);

/* The breakpoint at `addr` may close a trampoline (see isa.h pi_tramp_bp):
 * finish that step and return INST_TRAP_DONE, or INST_TRAP_NONE. */
int inst_tramp_trap(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_INST_INST_H */
