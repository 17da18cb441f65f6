/*
 * isa/x86_64/insn_step.c: carrying out a probed instruction after its
 * probe fired (probe context: yes).
 *
 * The thread stopped at the int3 that replaced the instruction; the engine
 * hands us the isa_probe_insn_t that isa_probe_prepare() filled and the
 * thread's registers.  We either emulate the instruction on the register
 * image (a short list of cheap, common ones: prologue and epilogue
 * instructions, nops, every relative branch, indirect branches whose target
 * we can compute, RIP-relative loads and lea), or point the PC at the
 * out-of-line copy that isa_probe_tramp() wrote.
 *
 * Invariants:
 *   - nothing here decodes: isa_probe_prepare() resolved every operand that
 *     depends on the instruction's address into pi_data (insn_ops.h);
 *   - memory is touched only through the isa_nofault_* primitives, so a
 *     bad stack or a bad function pointer becomes ISA_STEP_FAULT with the
 *     registers untouched, and the port delivers the fault as the original
 *     instruction would have;
 *   - registers are written only after every memory access succeeded;
 *   - a ret or indirect branch to a non-canonical address is a fault at
 *     that address, as the processor faults on such a branch;
 *   - freestanding: no libc beyond what the compiler may emit, no OS.
 *
 * Emulated calls and returns do not update a CET shadow stack; a process
 * running with user shadow stacks enabled must not have call/ret emulated.
 */
#include "isa.h"
#include "insn_ops.h"

#define RFL_CF 0x0001
#define RFL_PF 0x0004
#define RFL_AF 0x0010
#define RFL_ZF 0x0040
#define RFL_SF 0x0080
#define RFL_OF 0x0800
#define RFL_ARITH (RFL_CF | RFL_PF | RFL_AF | RFL_ZF | RFL_SF | RFL_OF)

/* The x86 condition codes, indexed by the low nibble of jcc/setcc/cmovcc. */
static bool
cond_holds(unsigned cc, uint64_t fl)
{
	bool cf = (fl & RFL_CF) != 0, zf = (fl & RFL_ZF) != 0;
	bool sf = (fl & RFL_SF) != 0, of = (fl & RFL_OF) != 0;
	bool pf = (fl & RFL_PF) != 0;
	bool r;

	switch (cc >> 1) {
	case 0: /* o */
		r = of;
		break;
	case 1: /* b */
		r = cf;
		break;
	case 2: /* e */
		r = zf;
		break;
	case 3: /* be */
		r = cf || zf;
		break;
	case 4: /* s */
		r = sf;
		break;
	case 5: /* p */
		r = pf;
		break;
	case 6: /* l */
		r = sf != of;
		break;
	default: /* le */
		r = zf || sf != of;
		break;
	}
	/* Odd codes are the negations. */
	return (cc & 1) ? !r : r;
}

/* RFLAGS after a 64-bit add or sub of a and b giving res. */
static uint64_t
arith_flags(uint64_t fl, uint64_t a, uint64_t b, uint64_t res, bool sub)
{
	uint8_t low = (uint8_t)res;
	unsigned ones = 0;
	int i;

	fl &= ~(uint64_t)RFL_ARITH;
	if (sub ? a < b : res < a)
		fl |= RFL_CF;
	if ((sub ? (a ^ b) & (a ^ res) : ~(a ^ b) & (a ^ res)) >> 63)
		fl |= RFL_OF;
	if ((a ^ b ^ res) & 0x10)
		fl |= RFL_AF;
	if (res == 0)
		fl |= RFL_ZF;
	if (res >> 63)
		fl |= RFL_SF;
	for (i = 0; i < 8; i++)
		ones += (low >> i) & 1;
	if ((ones & 1) == 0)
		fl |= RFL_PF;
	return fl;
}

/*
 * A branch to a non-canonical address raises #GP at the branch itself, so
 * a ret or indirect branch emulated with such a target is reported as a
 * fault at the target rather than resumed there.  The test is for 57-bit
 * (five-level paging) addresses, which every 48-bit address also passes.
 */
static bool
canonical(uint64_t v, uintptr_t *fault_addr)
{
	if ((uint64_t)((int64_t)(v << 7) >> 7) == v)
		return true;
	*fault_addr = (uintptr_t)v;
	return false;
}

/* Store an 8-byte word at addr in the interrupted thread's memory. */
static bool
store64(uintptr_t addr, uint64_t v, uintptr_t *fault_addr)
{
	isa_nofault_result_t r = isa_nofault_copy((void *)addr, (uintptr_t)&v, sizeof(v));

	if (r.fault != 0) {
		*fault_addr = (uintptr_t)r.value;
		return false;
	}
	return true;
}

static bool
load64(uintptr_t addr, uint64_t *v, uintptr_t *fault_addr)
{
	isa_nofault_result_t r = isa_nofault_load64(addr);

	if (r.fault != 0) {
		*fault_addr = (uintptr_t)r.value;
		return false;
	}
	*v = r.value;
	return true;
}

/* The target of an indirect jmp/call: a register, or a word in memory. */
static bool
indirect_target(const isa_probe_insn_t *pi, const isa_regs_t *regs, uint64_t *target,
                uintptr_t *fault_addr)
{
	uint64_t mode = pi->pi_data[X86_IND_MODE];
	uint64_t base = pi->pi_data[X86_IND_BASE], index = pi->pi_data[X86_IND_INDEX];
	uint64_t ea;

	if (!(mode & X86_IND_MEM)) {
		*target = regs->r[base];
		return true;
	}
	ea = pi->pi_data[X86_IND_DISP];
	if (base != X86_NOREG)
		ea += regs->r[base];
	if (index != X86_NOREG)
		ea += regs->r[index] * (mode & 0xff);
	return load64((uintptr_t)ea, target, fault_addr);
}

int
isa_probe_step(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, isa_regs_t *regs,
               uint64_t *save, uintptr_t *fault_addr)
{
	uint64_t *r = regs->r;
	uint64_t next = (uint64_t)pc + pi->pi_len;
	uint64_t sp = r[ISA_REG_RSP];
	uint64_t v, a, b, res;
	bool taken;

	switch (pi->pi_op) {
	case X86_OP_NEXT:
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_PUSH_REG:
		/* push %rsp stores the value from before the decrement. */
		if (!store64((uintptr_t)(sp - 8), r[pi->pi_data[0]], fault_addr))
			return ISA_STEP_FAULT;
		r[ISA_REG_RSP] = sp - 8;
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_MOV_REG:
		r[pi->pi_data[0]] = r[pi->pi_data[1]];
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_ADDSUB_IMM:
		a = r[pi->pi_data[0]];
		b = pi->pi_data[1];
		res = pi->pi_data[2] ? a - b : a + b;
		r[ISA_REG_RFL] = arith_flags(r[ISA_REG_RFL], a, b, res, pi->pi_data[2] != 0);
		r[pi->pi_data[0]] = res;
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_RET:
		if (!load64((uintptr_t)sp, &v, fault_addr) || !canonical(v, fault_addr))
			return ISA_STEP_FAULT;
		r[ISA_REG_RSP] = sp + 8 + pi->pi_data[0];
		r[ISA_REG_RIP] = v;
		return ISA_STEP_DONE;

	case X86_OP_JMP:
		r[ISA_REG_RIP] = pi->pi_data[0];
		return ISA_STEP_DONE;

	case X86_OP_CALL:
		if (!store64((uintptr_t)(sp - 8), next, fault_addr))
			return ISA_STEP_FAULT;
		r[ISA_REG_RSP] = sp - 8;
		r[ISA_REG_RIP] = pi->pi_data[0];
		return ISA_STEP_DONE;

	case X86_OP_JCC:
		taken = cond_holds((unsigned)pi->pi_data[1], r[ISA_REG_RFL]);
		r[ISA_REG_RIP] = taken ? pi->pi_data[0] : next;
		return ISA_STEP_DONE;

	case X86_OP_LOOP:
		v = r[ISA_REG_RCX];
		if (pi->pi_data[1] == X86_LOOP_JRCXZ) {
			taken = v == 0;
		} else {
			/* loop* decrements rcx and leaves the flags alone. */
			v--;
			taken = v != 0;
			if (pi->pi_data[1] == X86_LOOP_LOOPE)
				taken = taken && (r[ISA_REG_RFL] & RFL_ZF);
			else if (pi->pi_data[1] == X86_LOOP_LOOPNE)
				taken = taken && !(r[ISA_REG_RFL] & RFL_ZF);
			r[ISA_REG_RCX] = v;
		}
		r[ISA_REG_RIP] = taken ? pi->pi_data[0] : next;
		return ISA_STEP_DONE;

	case X86_OP_JMP_IND:
		if (!indirect_target(pi, regs, &v, fault_addr) || !canonical(v, fault_addr))
			return ISA_STEP_FAULT;
		r[ISA_REG_RIP] = v;
		return ISA_STEP_DONE;

	case X86_OP_CALL_IND:
		/* The operand is evaluated before the push moves %rsp. */
		if (!indirect_target(pi, regs, &v, fault_addr) || !canonical(v, fault_addr))
			return ISA_STEP_FAULT;
		if (!store64((uintptr_t)(sp - 8), next, fault_addr))
			return ISA_STEP_FAULT;
		r[ISA_REG_RSP] = sp - 8;
		r[ISA_REG_RIP] = v;
		return ISA_STEP_DONE;

	case X86_OP_LOAD_RIP:
		if (pi->pi_data[2] == 4) {
			isa_nofault_result_t l = isa_nofault_load32((uintptr_t)pi->pi_data[1]);

			if (l.fault != 0) {
				*fault_addr = (uintptr_t)l.value;
				return ISA_STEP_FAULT;
			}
			v = (uint32_t)l.value;
		} else if (!load64((uintptr_t)pi->pi_data[1], &v, fault_addr)) {
			return ISA_STEP_FAULT;
		}
		r[pi->pi_data[0]] = v;
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_SET_REG:
		r[pi->pi_data[0]] = pi->pi_data[1];
		r[ISA_REG_RIP] = next;
		return ISA_STEP_DONE;

	case X86_OP_OOL_RIP:
		/* The copy addresses its data as disp32(%scratch): give the
		 * scratch register the value %rip would have had. */
		*save = r[pi->pi_data[0]];
		r[pi->pi_data[0]] = next;
		r[ISA_REG_RIP] = tramp;
		return ISA_STEP_TRAMP;

	case X86_OP_OOL:
	case X86_OP_OOL_RIPDISP:
		r[ISA_REG_RIP] = tramp;
		return ISA_STEP_TRAMP;

	default:
		/* Not something isa_probe_prepare() accepted (a zeroed or
		 * corrupt pi): make the port deliver a fault at the site rather
		 * than run code that may not exist. */
		*fault_addr = pc;
		return ISA_STEP_FAULT;
	}
}

void
isa_probe_step_done(const isa_probe_insn_t *pi, uintptr_t pc, isa_regs_t *regs, uint64_t save)
{
	if (pi->pi_op == X86_OP_OOL_RIP)
		regs->r[pi->pi_data[0]] = save;
	regs->r[ISA_REG_RIP] = (uint64_t)pc + pi->pi_len;
}
