/*
 * isa/aarch64/regs.c: DTrace's uregs[] numbering on AArch64.
 *
 * uregs[0..30] are x0..x30, uregs[31] sp, uregs[32] pc, uregs[33]
 * pstate: the isa_regs_t order itself.  Probe context: yes.
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
	return rp->r[dtrace_reg];
}

/* x30 is signed at a retaa/retab return site: the PAC bits go. */
bool
isa_regs_entry_caller(isa_regs_t *rp)
{
	uint64_t ra = rp->r[ISA_REG_LR] & ~(uint64_t)ISA_DWARF_RA_PAC_MASK;

	if (ra == 0)
		return false;
	rp->r[ISA_REG_PC] = ra;
	return true;
}

/* AAPCS64 integer argument registers x0..x7. */
const unsigned isa_arg_regs[] = {0, 1, 2, 3, 4, 5, 6, 7};
const unsigned isa_narg_regs = sizeof(isa_arg_regs) / sizeof(isa_arg_regs[0]);

const char isa_name[] = "aarch64";
