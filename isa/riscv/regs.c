/*
 * isa/riscv/regs.c: DTrace's uregs[] numbering on RISC-V.
 *
 * uregs[0..31] are x0..x31 by number and uregs[32] the pc: the isa_regs_t
 * order itself.  x0 reads as zero.  Probe context: yes.
 */
#include "isa.h"

uint64_t
isa_uregs_get(const isa_regs_t *rp, unsigned dtrace_reg, bool *ok)
{
	if (dtrace_reg >= ISA_NREGS) {
		*ok = false;
		return 0;
	}
	*ok = true;
	return dtrace_reg == ISA_REG_ZERO ? 0 : rp->r[dtrace_reg];
}

bool
isa_regs_entry_caller(isa_regs_t *rp)
{
	if (rp->r[ISA_REG_RA] == 0)
		return false;
	rp->r[ISA_REG_PC] = rp->r[ISA_REG_RA];
	return true;
}

/* Integer argument registers a0..a7 (x10..x17). */
const unsigned isa_arg_regs[] = {10, 11, 12, 13, 14, 15, 16, 17};
const unsigned isa_narg_regs = sizeof(isa_arg_regs) / sizeof(isa_arg_regs[0]);

const char isa_name[] = "riscv";
