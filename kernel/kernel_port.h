/*
 * kernel/kernel_port.h: what the kernel/ sources ask of the kernel backend that
 * links it, beyond core/port.h.  Each port/<os>/ of a kernel defines these.
 */
#ifndef DTRACE_KERNEL_PORT_H
#define DTRACE_KERNEL_PORT_H

#include "dtrace.h"
#include "isa.h"

/* The first address above the current process's user space. */
uintptr_t kern_user_limit(void);

/*
 * Around every nofault primitive of isa/: enter returns a cookie for exit.
 * A kernel whose trap handler resumes at isa_nofault_pad leaves the result
 * alone (FreeBSD, NetBSD); one whose trap code skips the faulting
 * instruction under a per-CPU flag sets the flag in enter and, in exit,
 * clears it and turns a recorded fault into r->fault and r->value (illumos).
 * For DTRACE_AS_USER, enter also opens user access where the processor
 * guards it (SMAP, riscv SUM) and exit closes it.  Probe context: yes.
 */
uintptr_t kern_nofault_enter(int space);
void kern_nofault_exit(int space, uintptr_t cookie, isa_nofault_result_t *r);

/* The registers of the breakpoint trap this CPU is handling, or NULL. */
const isa_regs_t *kern_trap_regs(void);
/* dtrace_probe()'s frame, recorded by dtrace_port_probe_enter(), or 0. */
uintptr_t kern_probe_fp(void);

/* The user registers of the current thread as it entered the kernel, or
 * false (a kernel thread, an interrupt).  Probe context: yes. */
bool kern_user_regs(isa_regs_t *regs);

#endif /* DTRACE_KERNEL_PORT_H */
