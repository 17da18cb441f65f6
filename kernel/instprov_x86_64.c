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
