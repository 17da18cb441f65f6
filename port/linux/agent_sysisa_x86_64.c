/*
 * port/linux/agent_sysisa_x86_64.c: the x86_64 system call convention for
 * the agent's system call tracing (agent_sysisa.h): number in %rax,
 * arguments in %rdi %rsi %rdx %r10 %r8 %r9, result in %rax; `syscall`.
 */
#include <linux/audit.h>

#include "agent_sysisa.h"
#include "isa.h"

const unsigned linux_sys_nr_reg = ISA_REG_RAX;
const unsigned linux_sys_arg_regs[6] = {ISA_REG_RDI, ISA_REG_RSI, ISA_REG_RDX,
                                        ISA_REG_R10, ISA_REG_R8,  ISA_REG_R9};
const unsigned linux_sys_ret_reg = ISA_REG_RAX;
const uint32_t linux_sys_audit_arch = AUDIT_ARCH_X86_64;
const uint32_t linux_sys_foreign_bit = 0x40000000; /* __X32_SYSCALL_BIT */

/* C's arguments: nr %rdi, a0..a4 %rsi %rdx %rcx %r8 %r9, a5 on the stack. */
__asm__(".text\n"
        ".globl linux_agent_sysgadget\n"
        ".hidden linux_agent_sysgadget\n"
        ".type linux_agent_sysgadget, @function\n"
        "linux_agent_sysgadget:\n"
        "	movq %rdi, %rax\n"
        "	movq %rsi, %rdi\n"
        "	movq %rdx, %rsi\n"
        "	movq %rcx, %rdx\n"
        "	movq %r8, %r10\n"
        "	movq %r9, %r8\n"
        "	movq 8(%rsp), %r9\n"
        "	syscall\n"
        ".globl linux_agent_sysgadget_ret\n"
        ".hidden linux_agent_sysgadget_ret\n"
        "linux_agent_sysgadget_ret:\n"
        "	ret\n"
        ".size linux_agent_sysgadget, . - linux_agent_sysgadget\n");
