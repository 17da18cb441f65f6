/*
 * isa/aarch64/patch.c: breakpoint and small instruction values on AArch64.
 *
 * The breakpoint is `brk #0x40d` (DTrace's immediate on arm64), one 4-byte
 * instruction replacing one instruction.  The trap reports the PC of the
 * brk itself.  Instructions are little-endian words.  Probe context: yes.
 */
#include <string.h>

#include "isa.h"

#define A64_BRK(imm) (0xd4200000u | ((uint32_t)(imm) << 5))
#define A64_DTRACE_BRK A64_BRK(0x40d)

size_t
isa_breakpoint_insn(size_t orig_len, uint8_t *out, size_t outsz)
{
	uint32_t insn = A64_DTRACE_BRK;

	if (orig_len < 4 || outsz < 4)
		return 0;
	out[0] = (uint8_t)insn;
	out[1] = (uint8_t)(insn >> 8);
	out[2] = (uint8_t)(insn >> 16);
	out[3] = (uint8_t)(insn >> 24);
	return 4;
}

uintptr_t
isa_breakpoint_site(uintptr_t trap_pc)
{
	return trap_pc;
}

const uint8_t isa_insn_nop[] = {0x1f, 0x20, 0x03, 0xd5}; /* nop: 0xd503201f */
const size_t isa_insn_nop_len = sizeof(isa_insn_nop);
const uint8_t isa_insn_ret[] = {0xc0, 0x03, 0x5f, 0xd6}; /* ret: 0xd65f03c0 */
const size_t isa_insn_ret_len = sizeof(isa_insn_ret);
