/*
 * isa/jump_none.c: the "Jump-patched probes" half of isa.h for an ISA
 * that has none yet: isa_jump_len 0 tells the engine, jump/, to leave
 * every site to the breakpoint path.  Not built on its own: an ISA's
 * jump.c includes it, so that the C files of isa/<isa>/ stay the ISA's
 * whole module, as the kernel builds take them.
 */
#include "isa.h"

const size_t isa_jump_len = 0;
const uint64_t isa_jump_reach = 0;

size_t
isa_jump_tramp(uintptr_t site, const uint8_t *copy, size_t copylen, uintptr_t entry,
	       uint8_t *buf, size_t bufsz, size_t *copy_off)
{
	(void)site;
	(void)copy;
	(void)copylen;
	(void)entry;
	(void)buf;
	(void)bufsz;
	*copy_off = 0;
	return 0;
}

size_t
isa_jump_insn(uintptr_t site, uintptr_t tramp, uint8_t *buf, size_t bufsz)
{
	(void)site;
	(void)tramp;
	(void)buf;
	(void)bufsz;
	return 0;
}

void
isa_jump_frame_regs(const uint64_t *frame, uintptr_t site, isa_regs_t *regs)
{
	(void)frame;
	for (unsigned i = 0; i < ISA_NREGS; i++)
		regs->r[i] = 0;
	regs->r[ISA_REG_PC] = site;
}
