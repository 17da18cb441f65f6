/*
 * isa/riscv/patch.c: breakpoint and small instruction values on RISC-V.
 *
 * The breakpoint has the width of what it replaces: `ebreak` (4 bytes) for
 * a standard instruction, `c.ebreak` (2 bytes) for a compressed one.  The
 * trap reports the PC of the ebreak itself.  Probe context: yes.
 */
#include "isa.h"

#define RV_EBREAK 0x00100073u
#define RV_C_EBREAK 0x9002u

size_t
isa_breakpoint_insn(size_t orig_len, uint8_t *out, size_t outsz)
{
	if (orig_len >= 4 && outsz >= 4) {
		out[0] = (uint8_t)RV_EBREAK;
		out[1] = (uint8_t)(RV_EBREAK >> 8);
		out[2] = (uint8_t)(RV_EBREAK >> 16);
		out[3] = (uint8_t)(RV_EBREAK >> 24);
		return 4;
	}
	if (orig_len == 2 && outsz >= 2) {
		out[0] = (uint8_t)RV_C_EBREAK;
		out[1] = (uint8_t)(RV_C_EBREAK >> 8);
		return 2;
	}
	return 0;
}

uintptr_t
isa_breakpoint_site(uintptr_t trap_pc)
{
	return trap_pc;
}

const uint8_t isa_insn_nop[] = {0x13, 0x00, 0x00, 0x00}; /* addi x0, x0, 0 */
const size_t isa_insn_nop_len = sizeof(isa_insn_nop);
const uint8_t isa_insn_ret[] = {0x67, 0x80, 0x00, 0x00}; /* jalr x0, 0(ra) */
const size_t isa_insn_ret_len = sizeof(isa_insn_ret);
