/*
 * inst/inst_args.c: where a statically defined probe's arguments are
 * (probe context).
 *
 * A USDT probe's arguments are described by a recipe (inst.h: a constant,
 * a register or part of one, or memory at a base register plus a scaled
 * index plus a displacement; inst_usdt.c keeps it with the site).  Probe
 * context follows it with the trapped registers and the ISA's nofault
 * loads: a bad address reads 0, as a fault in DTrace's argument fetch
 * does.  No loop, no allocation, no lock.  Kept apart from inst_usdt.c so
 * a process that only traps links no site-making code.
 */
#include "inst_impl.h"

/* Keep the low `bytes` bytes of v, sign-extended when `sign`. */
static uint64_t
arg_extend(uint64_t v, unsigned bytes, bool sign)
{
	unsigned bits = bytes * 8;

	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (sign && (v >> (bits - 1)) != 0)
		v |= ~0ULL << bits;
	return v;
}

uint64_t
inst_arg_value(const inst_arg_t *a, const isa_regs_t *regs)
{
	isa_nofault_result_t r;
	uint64_t v, addr;

	switch (a->ia_kind) {
	case INST_ARG_CONST:
		v = (uint64_t)a->ia_disp;
		break;
	case INST_ARG_REG:
		v = arg_extend(regs->r[a->ia_base] >> a->ia_shift, a->ia_regbytes, false);
		break;
	case INST_ARG_MEM:
		addr = (uint64_t)a->ia_disp;
		if (a->ia_base != INST_ARG_NOREG)
			addr += regs->r[a->ia_base];
		if (a->ia_index != INST_ARG_NOREG)
			addr += regs->r[a->ia_index] * a->ia_scale;
		switch (a->ia_size) {
		case 1:
			r = isa_nofault_load8((uintptr_t)addr);
			break;
		case 2:
			r = isa_nofault_load16((uintptr_t)addr);
			break;
		case 4:
			r = isa_nofault_load32((uintptr_t)addr);
			break;
		default:
			r = isa_nofault_load64((uintptr_t)addr);
			break;
		}
		v = r.fault != 0 ? 0 : r.value;
		break;
	default:
		return 0;
	}
	return arg_extend(v, a->ia_size, a->ia_signed != 0);
}
