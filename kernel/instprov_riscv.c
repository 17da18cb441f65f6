/*
 * kernel/instprov_riscv.c: how compiled RISC-V kernel code sets up a
 * frame, for fbt and kinst (instprov.h, instprov_isa_frame).
 *
 * FreeBSD's riscv fbt takes a function as compiled code when it stores the
 * return address on the stack: sd ra, n(sp), or its compressed form
 * c.sdsp ra, n(sp).  Instructions are 16 or 32 bits (the two low bits tell
 * which); a longer encoding, which no kernel uses, ends the search.
 *
 * The emulated instruction that could store below sp (isa/riscv/insn.c) is
 * sd through sp with a negative offset (c.sdsp's offsets are unsigned).
 */
#include "instprov.h"

#define RV_SD_MASK 0x01fff07fu /* opcode, funct3, rs1, rs2 */
#define RV_SD_RA_SP (0x23u | 3u << 12 | 2u << 15 | 1u << 20)
#define RV_C_SDSP_MASK 0xe07fu /* op, funct3, rs2 */
#define RV_C_SDSP_RA (0x2u | 1u << 2 | 7u << 13)

long
instprov_isa_frame(const uint8_t *code, size_t size)
{
	size_t off = 0;

	while (off + 2 <= size) {
		uint32_t h = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8;

		if ((h & 3) != 3) {
			if ((h & RV_C_SDSP_MASK) == RV_C_SDSP_RA)
				return (long)off;
			off += 2;
			continue;
		}
		if ((h & 0x1f) == 0x1f || off + 4 > size)
			return -1;
		h |= (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		if ((h & RV_SD_MASK) == RV_SD_RA_SP)
			return (long)off;
		off += 4;
	}
	return -1;
}

size_t
instprov_isa_stack_write(const isa_probe_insn_t *pi)
{
	uint32_t w;
	int32_t off;

	if (pi->pi_len != 4 || pi->pi_tramp_len != 0)
		return 0;
	w = (uint32_t)pi->pi_orig[0] | (uint32_t)pi->pi_orig[1] << 8 |
	    (uint32_t)pi->pi_orig[2] << 16 | (uint32_t)pi->pi_orig[3] << 24;
	if ((w & 0x707fu) != 0x3023u || ((w >> 15) & 31) != 2)
		return 0; /* not sd through sp */
	off = (int32_t)(((w >> 25) << 5) | ((w >> 7) & 31));
	if (off & 0x800)
		off -= 0x1000;
	return off < 0 ? (size_t)-off : 0;
}
