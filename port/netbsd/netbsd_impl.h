/*
 * port/netbsd/netbsd_impl.h: what the files of the NetBSD backend share.
 *
 * The backend is one kernel module, "dtrace", built three ways from the same
 * sources: for amd64 and aarch64 against the NetBSD 7.99 kernel headers of
 * ../shared/sysroots/netbsd (ci/kernel-modules.sh), and as a component of
 * the NetBSD rump kernel of ../shared/rump (rump/build-component.sh).  What
 * differs between the three is in the md_<isa>_*.c files (md_rump.c for
 * the rump kernel): trap glue and text patching; the rest is the same code.
 *
 * Per-CPU state.  dtnb_cpus[] is indexed by cpu_index(), dense from 0 below
 * ncpu: the core's CPU id.  A CPU's entry is written only by that CPU with
 * interrupts blocked (splhigh), or by its trap handler, which runs on it.
 */
#ifndef DTNB_NETBSD_IMPL_H
#define DTNB_NETBSD_IMPL_H

#include "dtrace.h"
#include "isa.h"
#include "kernel_port.h"
#include "kpost.h"

typedef struct dtnb_cpu {
	volatile int dc_inprobe;     /* in probe context (recursion guard) */
	const isa_regs_t *dc_regs;   /* interrupted registers, during a trap */
	uintptr_t dc_probe_fp;	     /* frame of dtrace_probe, in probe context */
	kpost_t dc_post;	     /* raise()/stop() posted (kernel/kpost.h) */
} dtnb_cpu_t;

extern dtnb_cpu_t *dtnb_cpus;
extern uint32_t dtnb_ncpus;

/* The calling CPU's entry; the caller keeps itself on this CPU. */
dtnb_cpu_t *dtnb_curcpu(void);

/* --- Trap glue (md_<isa>_trap.c, md_rump.c) ------------------------------
 * install/uninstall hook the kernel's DTrace trap entries and put back
 * exactly what was there.  They also define kern_user_limit() and
 * kern_user_regs() of kernel/kernel_port.h; the nofault loads and stacks
 * themselves are kernel/nofault.c and kernel/stack.c. */
int dtnb_trap_install(void);
int dtnb_trap_uninstall(void);

/*
 * A memory fault at pc with fault address addr: when pc is in a nofault
 * primitive of isa/ (only DTrace runs them), returns the fault code the
 * primitive is to return and where to resume (isa_nofault_pad; the trap
 * glue stores addr and the code in ISA_REG_RET0/RET1); else 0.
 */
int dtnb_fault(uintptr_t pc, uintptr_t *resume);

/* Does this kernel route breakpoints here (md_<isa>_trap.c, md_rump.c)?
 * With how many bytes below the interrupted stack pointer left free for
 * the engine's emulated stores (instprov.h ic_stack_gap). */
extern const bool dtnb_md_breakpoints;
extern const size_t dtnb_md_bp_gap;

/* A dtrace_port_timer whose thread runs on ci (NULL: any CPU), timer.c. */
struct cpu_info;
dtrace_port_timer_t *dtnb_timer_start_on(struct cpu_info *ci, uint64_t interval_ns,
					 void (*fn)(void *), void *arg);

/* --- Providers: register at load, unregister at unload ------------------ */
int dtnb_profile_init(void);
int dtnb_profile_fini(void);
int dtnb_syscall_init(void);
int dtnb_syscall_fini(void);
int dtnb_sdt_init(void);
int dtnb_sdt_fini(void);
int dtnb_inst_init(void); /* fbt and kinst (fbt_kinst.c) */
int dtnb_inst_fini(void);

/* --- Module life cycle (memory.c, destructive.c) ---------------------------------------- */
int dtnb_memory_init(void);
int dtnb_memory_fini(void);
int dtnb_destructive_init(void);
int dtnb_destructive_fini(void);

/* --- The dtrace and helper devices (device.c) ---------------------------- */
int dtnb_device_attach(void);
int dtnb_device_detach(void);

#endif /* DTNB_NETBSD_IMPL_H */
