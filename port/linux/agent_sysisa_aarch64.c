/*
 * port/linux/agent_sysisa_aarch64.c: the AArch64 system call convention
 * for the agent's system call tracing (agent_sysisa.h): number in x8,
 * arguments in x0..x5, result in x0; `svc #0`.  Not yet run on AArch64.
 */
#include <linux/audit.h>

#include "agent_sysisa.h"
#include "isa.h"

const unsigned linux_sys_nr_reg = ISA_REG_X0 + 8;
const unsigned linux_sys_arg_regs[6] = {ISA_REG_X0,     ISA_REG_X0 + 1, ISA_REG_X0 + 2,
                                        ISA_REG_X0 + 3, ISA_REG_X0 + 4, ISA_REG_X0 + 5};
const unsigned linux_sys_ret_reg = ISA_REG_X0;
const uint32_t linux_sys_audit_arch = AUDIT_ARCH_AARCH64;
const uint32_t linux_sys_foreign_bit = 0;

__asm__(".text\n"
        ".globl linux_agent_sysgadget\n"
        ".hidden linux_agent_sysgadget\n"
        ".type linux_agent_sysgadget, %function\n"
        "linux_agent_sysgadget:\n"
        "	mov x8, x0\n"
        "	mov x0, x1\n"
        "	mov x1, x2\n"
        "	mov x2, x3\n"
        "	mov x3, x4\n"
        "	mov x4, x5\n"
        "	mov x5, x6\n"
        "	svc #0\n"
        ".globl linux_agent_sysgadget_ret\n"
        ".hidden linux_agent_sysgadget_ret\n"
        "linux_agent_sysgadget_ret:\n"
        "	ret\n"
        ".size linux_agent_sysgadget, . - linux_agent_sysgadget\n");
