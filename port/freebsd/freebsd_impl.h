/*
 * port/freebsd/freebsd_impl.h: what the FreeBSD backend's files share.
 *
 * The backend is a kernel module that replaces FreeBSD's dtrace.ko: the
 * core, this port, the ISA module and the OS providers linked into one
 * object.  It includes only the FreeBSD kernel headers of the sysroot (and
 * port/freebsd/std/ for the four C names core/port.h uses), core/dtrace.h
 * and isa/isa.h.
 *
 * Per-CPU state lives in fbsd_cpus[], indexed by curcpu: whether the CPU is
 * in probe context, the registers of a breakpoint trap being handled (for
 * arguments and stacks), the frame of dtrace_probe() (where kernel stacks
 * start), and a signal that raise()/stop() posted.  Only the owning CPU
 * writes it, with interrupts disabled; the delivery timer takes a posted
 * signal with an atomic swap (kernel/kpost.h).
 *
 * Machine-dependent pieces are in md_<isa>.c (one is linked, chosen by the
 * build, never by #if): trap-frame translation, the counter behind
 * gethrtime, kernel text writes, SMAP around user loads, and the
 * breakpoint hook.
 */
#ifndef DTRACE_PORT_FREEBSD_IMPL_H
#define DTRACE_PORT_FREEBSD_IMPL_H

#include <sys/param.h>
#include <sys/systm.h>
#include <sys/kernel.h>
#include <sys/lock.h>
#include <sys/malloc.h>
#include <sys/mutex.h>
#include <sys/pcpu.h>
#include <sys/proc.h>
#include <sys/dtrace_bsd.h>

#include <machine/cpufunc.h>
#include <machine/frame.h>

#include "dtrace.h"
#include "isa.h"
#include "kpost.h"

MALLOC_DECLARE(M_DTRACE);

struct fbsd_cpu {
	volatile int fc_inprobe;	 /* in probe context */
	const isa_regs_t *fc_trapregs;	 /* a breakpoint trap's registers, or NULL */
	uintptr_t fc_probe_fp;		 /* frame of dtrace_probe(), 0 outside */
	kpost_t fc_post;		 /* raise()/stop() to deliver */
} __aligned(CACHE_LINE_SIZE);

extern struct fbsd_cpu fbsd_cpus[MAXCPU];

static __inline struct fbsd_cpu *
fbsd_cpu_self(void)
{
	return &fbsd_cpus[curcpu];
}

/* Machine-dependent (md_<isa>.c). */
void fbsd_md_regs(const struct trapframe *tf, isa_regs_t *regs);
void fbsd_md_regs_apply(struct trapframe *tf, const isa_regs_t *regs);
/* A memory fault in kernel mode: its DTRACEFLT_* code (0: not one), PC and
 * address.  `type` is what trap() passes dtrace_trap_func. */
int fbsd_md_memfault(const struct trapframe *tf, u_int type, uintptr_t *pc, uintptr_t *addr);
void fbsd_md_resume(struct trapframe *tf, uintptr_t pc, uint64_t ret0, uint64_t ret1);
uint64_t fbsd_md_counter(void);
uint64_t fbsd_md_counter_freq(void); /* 0: calibrate against sbinuptime() */
int fbsd_md_text_write(uintptr_t addr, const void *bytes, size_t len);
register_t fbsd_md_user_open(void);  /* before touching user memory (SMAP) */
void fbsd_md_user_close(register_t cookie);
void fbsd_md_invop_install(void);
void fbsd_md_invop_remove(void);
/* Bytes below the interrupted stack pointer the breakpoint path leaves for
 * the engine's emulated stores (instprov.h ic_stack_gap). */
extern const size_t fbsd_md_stack_gap;

/* A linker file as a port.h module, its short name written to name
 * (kernel_services.c). */
struct linker_file;
void fbsd_module_describe(struct linker_file *lf, dtrace_port_module_t *mod, char *name,
			  size_t namesz);

/* Breakpoint traps (trap.c): the md hook calls fbsd_breakpoint with the
 * kernel's frame; true when fbt or kinst claimed it, and *regs is then the
 * state to resume (the md hook writes it back its own way).
 * fbsd_breakpoint_hook is the whole hook where it is a C function. */
bool fbsd_breakpoint(const struct trapframe *tf, isa_regs_t *regs);
int fbsd_breakpoint_hook(struct trapframe *tf);

/* Life cycle of each part (module.c's steps): 0 or an errno value. */
int fbsd_time_init(void);
int fbsd_trap_init(void);
int fbsd_trap_fini(void);
int fbsd_post_init(void);
int fbsd_post_fini(void);
int fbsd_dev_init(void);
int fbsd_dev_fini(void);
int fbsd_profile_init(void);
int fbsd_profile_fini(void);
int fbsd_syscall_init(void);
int fbsd_syscall_fini(void);
int fbsd_sdt_init(void);
int fbsd_sdt_fini(void);
int fbsd_inst_init(void);
int fbsd_inst_fini(void);
int fbsd_locks_init(void);
int fbsd_locks_fini(void);

#endif /* DTRACE_PORT_FREEBSD_IMPL_H */
