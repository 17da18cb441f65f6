/*
 * isa/x86_64/regs.c: DTrace's uregs[] numbering on x86_64.
 *
 * DTrace keeps the i386 names as uregs[0..18] (R_GS .. R_SS) and puts the
 * amd64 registers after them: uregs[19 + REG_x] with the illumos amd64
 * REG_* order, which is also the isa_regs_t order.  The i386 names read the
 * 64-bit register they grew into (EAX reads RAX, UESP and ESP read RSP).
 * Probe context: yes.
 */
#include "isa.h"

/* uregs[0..18]: the i386 order GS FS ES DS EDI ESI EBP ESP EBX EDX ECX EAX
 * TRAPNO ERR EIP CS EFL UESP SS. */
static const unsigned char i386_to_amd64[19] = {
	ISA_REG_GS,  ISA_REG_FS,  ISA_REG_ES,  ISA_REG_DS,     ISA_REG_RDI,
	ISA_REG_RSI, ISA_REG_RBP, ISA_REG_RSP, ISA_REG_RBX,    ISA_REG_RDX,
	ISA_REG_RCX, ISA_REG_RAX, ISA_REG_TRAPNO, ISA_REG_ERR, ISA_REG_RIP,
	ISA_REG_CS,  ISA_REG_RFL, ISA_REG_RSP, ISA_REG_SS,
};

#define I386_NREGS (sizeof(i386_to_amd64) / sizeof(i386_to_amd64[0]))

uint64_t
isa_uregs_get(const isa_regs_t *rp, unsigned dtrace_reg, bool *ok)
{
	unsigned r;

	if (dtrace_reg < I386_NREGS)
		r = i386_to_amd64[dtrace_reg];
	else if (dtrace_reg - I386_NREGS < ISA_NREGS)
		r = dtrace_reg - I386_NREGS;
	else {
		*ok = false;
		return 0;
	}
	*ok = true;
	return rp->r[r];
}

bool
isa_regs_entry_caller(isa_regs_t *rp)
{
	isa_nofault_result_t r = isa_nofault_load64((uintptr_t)rp->r[ISA_REG_RSP]);

	if (r.fault != 0 || r.value == 0)
		return false;
	rp->r[ISA_REG_RIP] = r.value;
	rp->r[ISA_REG_RSP] += 8;
	return true;
}

/* SysV AMD64 integer argument registers. */
const unsigned isa_arg_regs[] = {ISA_REG_RDI, ISA_REG_RSI, ISA_REG_RDX,
				 ISA_REG_RCX, ISA_REG_R8,  ISA_REG_R9};
const unsigned isa_narg_regs = sizeof(isa_arg_regs) / sizeof(isa_arg_regs[0]);

const char isa_name[] = "x86_64";
