/*
 * port/illumos/trap.c: the nofault flag and the breakpoint hook.
 *
 * Nofault.  cmntrap looks at cpu_core[cpu].cpuc_dtrace_flags before
 * trap(): with CPU_DTRACE_NOFAULT set, a kernel page fault sets
 * CPU_DTRACE_BADADDR (address in cpuc_dtrace_illval), a protection fault
 * CPU_DTRACE_ILLOP, and the faulting instruction is skipped.  So the port
 * sets the flag around each of isa/'s primitives (kernel/nofault.c calls
 * kern_nofault_enter/exit) and turns what the trap recorded into the
 * primitive's result.  The primitives' results after a skipped load are
 * meaningless and never used.  cpu_core[] is the kernel's and only DTrace
 * writes it.
 *
 * Breakpoints.  dtrace_invop_add() registers ill_invop with the kernel's
 * #UD/#BP path.  It hands the trapping address and the saved registers to
 * the sdt provider, then to an instruction-probe engine if one registered
 * with ill_invop_set() (fbt, kinst: not part of this port yet); the answer
 * tells the trap code which instruction to emulate.
 */
#include "illumos_impl.h"
#include "kernel_port.h"

static volatile ill_invop_handler_t ill_invop_engine;

uintptr_t
kern_user_limit(void)
{
	return _userlimit;
}

uintptr_t
kern_nofault_enter(int space)
{
	(void)space;
	cpu_core[CPU->cpu_id].cpuc_dtrace_flags |= CPU_DTRACE_NOFAULT;
	return 0;
}

void
kern_nofault_exit(int space, uintptr_t cookie, isa_nofault_result_t *r)
{
	cpu_core_t *cc = &cpu_core[CPU->cpu_id];
	uint16_t flags = cc->cpuc_dtrace_flags;

	(void)space;
	(void)cookie;
	cc->cpuc_dtrace_flags &= ~(CPU_DTRACE_NOFAULT | CPU_DTRACE_BADADDR | CPU_DTRACE_ILLOP);
	if (flags & CPU_DTRACE_BADADDR) {
		r->fault = DTRACEFLT_BADADDR;
		r->value = cc->cpuc_dtrace_illval;
	} else if (flags & CPU_DTRACE_ILLOP) {
		r->fault = DTRACEFLT_ILLOP;
		r->value = cc->cpuc_dtrace_illval;
	}
}

static int
ill_invop(uintptr_t addr, uintptr_t *stack, uintptr_t rax)
{
	struct ill_cpu *ic = &ill_cpus[CPU->cpu_id];
	ill_invop_handler_t engine = ill_invop_engine;
	isa_regs_t regs;
	int rv;

	(void)rax;
	ill_md_regs(ill_md_invop_regs(stack), &regs);
	ic->ic_trapregs = &regs;
	if ((rv = ill_sdt_invop(addr, &regs)) == 0 && engine != NULL)
		rv = engine(addr, &regs);
	ic->ic_trapregs = NULL;
	return rv;
}

void
ill_invop_set(ill_invop_handler_t engine)
{
	ill_invop_engine = engine;
}

void
ill_trap_init(void)
{
	dtrace_invop_add(ill_invop);
}

void
ill_trap_fini(void)
{
	dtrace_invop_remove(ill_invop);
}
