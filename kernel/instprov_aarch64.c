/*
 * kernel/instprov_aarch64.c: how compiled AArch64 kernel code sets up a
 * frame, for fbt and kinst (instprov.h, instprov_isa_frame).
 *
 * FreeBSD's arm64 fbt: the function starts with a nop (an assembly
 * function marked for tracing), or the first 64-bit store pair with
 * pre-index it meets stores through sp (stp x29, x30, [sp, #-n]!), or a
 * sub sp, sp, #n comes first.  A store pair through another base register
 * before either means hand-written code, as does meeting neither.  bti and
 * paciasp before the frame are simply passed over.
 *
 * The emulated instruction that stores below sp (isa/aarch64/insn.c) is a
 * store pair of X registers through sp with a negative offset, pre-index
 * or not: -offset bytes.
 */
#include "instprov.h"

#define A64_NOP 0xd503201fu
#define A64_STP64_PRE_MASK 0xffc00000u
#define A64_STP64_PRE 0xa9800000u /* stp Xt, Xt2, [Xn|SP, #imm]! */
#define A64_SUB_IMM_MASK 0xff000000u
#define A64_SUB_IMM 0xd1000000u /* sub Xd|SP, Xn|SP, #imm{, lsl #12} */

static uint32_t
a64_word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define A64_STP64_OFF 0xa9000000u /* stp Xt, Xt2, [Xn|SP, #imm] */

long
instprov_isa_frame(const uint8_t *code, size_t size)
{
	size_t off;

	if (size >= 4 && a64_word(code) == A64_NOP)
		return 0;
	for (off = 0; off + 4 <= size; off += 4) {
		uint32_t w = a64_word(code + off);

		if ((w & A64_STP64_PRE_MASK) == A64_STP64_PRE)
			return ((w >> 5) & 31) == 31 ? (long)off : -1;
		if ((w & A64_SUB_IMM_MASK) == A64_SUB_IMM && (w & 31) == 31 &&
		    ((w >> 5) & 31) == 31)
			return (long)off;
	}
	return -1;
}

size_t
instprov_isa_stack_write(const isa_probe_insn_t *pi)
{
	uint32_t w;
	int64_t off;

	if (pi->pi_len != 4 || pi->pi_tramp_len != 0)
		return 0;
	w = a64_word(pi->pi_orig);
	if (((w & A64_STP64_PRE_MASK) != A64_STP64_PRE &&
	     (w & A64_STP64_PRE_MASK) != A64_STP64_OFF) ||
	    ((w >> 5) & 31) != 31)
		return 0;
	off = (int64_t)((w >> 15) & 0x7f);
	if (off & 0x40)
		off -= 0x80;
	return off < 0 ? (size_t)(-off * 8) : 0;
}
