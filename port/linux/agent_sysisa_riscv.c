/*
 * port/linux/agent_sysisa_riscv.c: the RISC-V system call convention for
 * the agent's system call tracing (agent_sysisa.h): number in a7,
 * arguments in a0..a5, result in a0; `ecall`.  Not yet run on RISC-V.
 */
#include <linux/audit.h>

#include "agent_sysisa.h"
#include "isa.h"

const unsigned linux_sys_nr_reg = ISA_REG_A0 + 7;
const unsigned linux_sys_arg_regs[6] = {ISA_REG_A0,     ISA_REG_A0 + 1, ISA_REG_A0 + 2,
                                        ISA_REG_A0 + 3, ISA_REG_A0 + 4, ISA_REG_A0 + 5};
const unsigned linux_sys_ret_reg = ISA_REG_A0;
const uint32_t linux_sys_audit_arch = AUDIT_ARCH_RISCV64;
const uint32_t linux_sys_foreign_bit = 0;

__asm__(".text\n"
        ".globl linux_agent_sysgadget\n"
        ".hidden linux_agent_sysgadget\n"
        ".type linux_agent_sysgadget, @function\n"
        "linux_agent_sysgadget:\n"
        "	mv a7, a0\n"
        "	mv a0, a1\n"
        "	mv a1, a2\n"
        "	mv a2, a3\n"
        "	mv a3, a4\n"
        "	mv a4, a5\n"
        "	mv a5, a6\n"
        "	ecall\n"
        ".globl linux_agent_sysgadget_ret\n"
        ".hidden linux_agent_sysgadget_ret\n"
        "linux_agent_sysgadget_ret:\n"
        "	ret\n"
        ".size linux_agent_sysgadget, . - linux_agent_sysgadget\n");
