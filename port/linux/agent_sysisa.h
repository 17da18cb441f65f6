/*
 * port/linux/agent_sysisa.h: what the agent's system call tracing
 * (agent_syscall.c) needs of the processor, one file per ISA
 * (agent_sysisa_<isa>.c, chosen by CMake): the system call convention in
 * isa_regs_t terms, the audit architecture seccomp reports, and the
 * agent's own system call instruction.
 */
#ifndef DTRACE_PORT_LINUX_AGENT_SYSISA_H
#define DTRACE_PORT_LINUX_AGENT_SYSISA_H

#include <stdint.h>

/* Registers (isa_regs_t indices) of a system call's number, its six
 * arguments in order, and its result. */
extern const unsigned linux_sys_nr_reg;
extern const unsigned linux_sys_arg_regs[6];
extern const unsigned linux_sys_ret_reg;
/* AUDIT_ARCH_* of seccomp_data.arch for this ISA's native calls. */
extern const uint32_t linux_sys_audit_arch;
/* Numbers with a bit the native ABI never sets (x86's x32 calls), which
 * the filter always lets through; 0 if none. */
extern const uint32_t linux_sys_foreign_bit;

/*
 * Make system call nr with six arguments from the agent's own instruction,
 * which the agent's filters let through (seccomp_data.instruction_pointer
 * is linux_agent_sysgadget_ret, the address after it); returns the raw
 * result (a negative errno on failure).  Probe context: yes.
 */
long linux_agent_sysgadget(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
extern const char linux_agent_sysgadget_ret[];

#endif
