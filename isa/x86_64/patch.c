/*
 * isa/x86_64/patch.c: breakpoint and small instruction values on x86_64.
 *
 * The breakpoint is int3 (0xcc), one byte, so it replaces the first byte
 * of any instruction.  The trap reports the PC after the int3, hence the
 * site is trap_pc - 1.  Probe context: yes.
 */
#include "isa.h"

#define X86_INT3 0xcc

size_t
isa_breakpoint_insn(size_t orig_len, uint8_t *out, size_t outsz)
{
	if (orig_len < 1 || outsz < 1)
		return 0;
	out[0] = X86_INT3;
	return 1;
}

uintptr_t
isa_breakpoint_site(uintptr_t trap_pc)
{
	return trap_pc - 1;
}

const uint8_t isa_insn_nop[] = {0x90};
const size_t isa_insn_nop_len = sizeof(isa_insn_nop);
const uint8_t isa_insn_ret[] = {0xc3};
const size_t isa_insn_ret_len = sizeof(isa_insn_ret);
