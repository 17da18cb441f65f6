/*
 * port/illumos/illumos_impl.h: what the illumos backend's files share.
 *
 * The backend is the `dtrace` pseudo-driver: the core, this port, the ISA
 * module and the OS providers in one kernel module.  It includes only the
 * OpenSolaris kernel headers of the sysroot (and port/illumos/std/ for the
 * four C names core/port.h uses), core/dtrace.h, isa/isa.h and kernel/.
 *
 * The kernel's DTrace interfaces are declared in <sys/dtrace.h>, the
 * framework's own header, which a port replacing the framework does not
 * use (nor does the sysroot ship it): the few the port calls are declared
 * here, with the file of the kernel that defines them; ci/kernel-modules.sh
 * lists the same names.
 *
 * Per-CPU state lives in ill_cpus[], indexed by CPU->cpu_id: probe context,
 * the registers of a breakpoint trap being handled, the frame of
 * dtrace_probe().  Only the owning CPU writes it, with interrupts off.
 */
#ifndef DTRACE_PORT_ILLUMOS_IMPL_H
#define DTRACE_PORT_ILLUMOS_IMPL_H

#include <sys/types.h>
#include <sys/param.h>
#include <sys/systm.h>
#include <sys/cmn_err.h>
#include <sys/cpuvar.h>
#include <sys/kmem.h>
#include <sys/mutex.h>
#include <sys/thread.h>
#include <sys/proc.h>
#include <sys/modctl.h>
#include <sys/privregs.h>

#include "dtrace.h"
#include "isa.h"

/* usr/src/uts/i86pc/os/dtrace_subr.c: the #UD/#BP handlers of kernel mode
 * call each registered function with the trapping PC, the interrupted
 * stack and %rax; a non-zero return names the instruction the trap code
 * must emulate (ILL_INVOP_*, the DTRACE_INVOP_* values for x86). */
typedef int (*ill_invop_fn_t)(uintptr_t addr, uintptr_t *stack, uintptr_t rax);
extern void dtrace_invop_add(ill_invop_fn_t);
extern void dtrace_invop_remove(ill_invop_fn_t);
#define ILL_INVOP_NOP 4

/* usr/src/uts/common/os/dtrace_subr.c: called by krtld after a module is
 * loaded and before it is unloaded; and the switch for t_dtrace_vtime. */
extern void (*dtrace_modload)(struct modctl *);
extern void (*dtrace_modunload)(struct modctl *);
extern int dtrace_vtime_active;

struct ill_cpu {
	volatile int ic_inprobe;
	const isa_regs_t *ic_trapregs;
	uintptr_t ic_probe_fp;
	char ic_pad[40];
};

extern struct ill_cpu ill_cpus[NCPU];

/* Machine-dependent (md_<isa>.c). */
uintptr_t ill_md_intr_disable(void);
void ill_md_intr_restore(uintptr_t cookie);
uint64_t ill_md_counter(void);
void ill_md_regs(const struct regs *rp, isa_regs_t *regs);
/* The struct regs the #UD handler saved, from dtrace_invop's `stack`. */
struct regs *ill_md_invop_regs(uintptr_t *stack);

/* Breakpoint traps (trap.c): a provider (sdt) or the instruction-probe
 * engine claims an address by returning ILL_INVOP_* from its handler. */
typedef int (*ill_invop_handler_t)(uintptr_t addr, const isa_regs_t *regs);
void ill_invop_set(ill_invop_handler_t engine);
int ill_sdt_invop(uintptr_t addr, const isa_regs_t *regs);

/* Life cycle, in load order. */
void ill_locks_init(void);
void ill_locks_fini(void);
int ill_time_init(void);
void ill_trap_init(void);
void ill_trap_fini(void);
int ill_profile_init(void);
int ill_profile_fini(void);
int ill_syscall_init(void);
int ill_syscall_fini(void);
int ill_sdt_init(void);
int ill_sdt_fini(void);
int ill_inst_init(void);
int ill_inst_fini(void);

#endif /* DTRACE_PORT_ILLUMOS_IMPL_H */
