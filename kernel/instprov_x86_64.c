/*
 * kernel/instprov_x86_64.c: how compiled x86_64 kernel code sets up a
 * frame, for fbt and kinst (instprov.h, instprov_isa_frame).
 *
 * DTrace's fbt on amd64 (illumos and FreeBSD alike) looks, instruction by
 * instruction, for the first push %rbp (the one-byte 55) and takes a
 * function without one for hand-written code: trap and interrupt entry
 * points, which the breakpoint path itself runs through.  Kernels are built
 * with frame pointers, so every compiled function has one, usually first
 * or right after endbr64.  FreeBSD's kinst insists on it being first; we
 * use fbt's rule for both providers and put the entry probe on the first
 * instruction either way.
 *
 * The emulated instructions that store below %rsp (isa/x86_64/insn_step.c)
 * are push of a register (50+r, FF /6) and call (E8, FF /2): 8 bytes.
 * Everything else either stores nothing there or runs its own copy in a
 * trampoline after the trap has returned.
 */
#include "instprov.h"

long
instprov_isa_frame(const uint8_t *code, size_t size)
{
	isa_insn_t in;
	size_t off;

	for (off = 0; off < size; off += in.ii_len) {
		if (code[off] == 0x55)
			return (long)off;
		if (isa_insn_decode(code + off, size - off, 0, &in) != 0)
			return -1;
	}
	return -1;
}

size_t
instprov_isa_stack_write(const isa_probe_insn_t *pi)
{
	isa_insn_t in;
	size_t i = 0;

	if (pi->pi_tramp_len != 0 || isa_insn_decode(pi->pi_orig, pi->pi_len, 0, &in) != 0)
		return 0;
	if (in.ii_flags & ISA_INSN_CALL)
		return 8;
	while (i < pi->pi_len && (pi->pi_orig[i] & 0xf0) == 0x40)
		i++; /* REX */
	if (i < pi->pi_len && pi->pi_orig[i] >= 0x50 && pi->pi_orig[i] <= 0x57)
		return 8;
	if (i + 1 < pi->pi_len && pi->pi_orig[i] == 0xff && ((pi->pi_orig[i + 1] >> 3) & 7) == 6)
		return 8;
	return 0;
}
