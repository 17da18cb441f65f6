/*
 * port/freebsd/md_aarch64.c: the arm64 pieces of the FreeBSD backend.
 *
 * The trap hook is called with the exception class (ESR_EL1.EC); a data
 * abort taken at EL1 is a nofault candidate, its address in FAR_EL1 (this
 * trapframe has no copy of it).  gethrtime counts CNTVCT_EL0 at CNTFRQ_EL0.
 * Kernel text is writable in this kernel: store, then
 * cpu_icache_sync_range (a current kernel maps text read-only and writes it
 * through arm64_get_writable_addr; see docs/porting.md).  The kernel does
 * not use PAN here, so user loads need no bracket.
 *
 * The breakpoint hook is a C function pointer defined in arm64/trap.c and
 * called for `brk #0x40d` in kernel mode, whose return value the kernel
 * ignores: a claimed trap resumes wherever the engine put the PC.
 */
#include "freebsd_impl.h"

#include <machine/armreg.h>
#include <machine/cpu.h>

/* Defined in sys/arm64/arm64/trap.c, declared in no header. */
extern int (*dtrace_invop_jump_addr)(struct trapframe *);

void
fbsd_md_regs(const struct trapframe *tf, isa_regs_t *regs)
{
	memset(regs, 0, sizeof(*regs));
	for (int i = 0; i < 30; i++)
		regs->r[ISA_REG_X0 + i] = tf->tf_x[i];
	regs->r[ISA_REG_LR] = tf->tf_lr;
	regs->r[ISA_REG_SP] = tf->tf_sp;
	regs->r[ISA_REG_PC] = tf->tf_elr;
	regs->r[ISA_REG_PSTATE] = tf->tf_spsr;
}

void
fbsd_md_regs_apply(struct trapframe *tf, const isa_regs_t *regs)
{
	for (int i = 0; i < 30; i++)
		tf->tf_x[i] = regs->r[ISA_REG_X0 + i];
	tf->tf_lr = regs->r[ISA_REG_LR];
	tf->tf_sp = regs->r[ISA_REG_SP];
	tf->tf_elr = regs->r[ISA_REG_PC];
}

int
fbsd_md_memfault(const struct trapframe *tf, u_int type, uintptr_t *pc, uintptr_t *addr)
{
	if (type != EXCP_DATA_ABORT || TRAPF_USERMODE(tf))
		return 0;
	*pc = (uintptr_t)tf->tf_elr;
	*addr = (uintptr_t)READ_SPECIALREG(far_el1);
	return DTRACEFLT_BADADDR;
}

void
fbsd_md_resume(struct trapframe *tf, uintptr_t pc, uint64_t ret0, uint64_t ret1)
{
	tf->tf_elr = pc;
	tf->tf_x[0] = ret0;
	tf->tf_x[1] = ret1;
}

uint64_t
fbsd_md_counter(void)
{
	return READ_SPECIALREG(cntvct_el0);
}

uint64_t
fbsd_md_counter_freq(void)
{
	return READ_SPECIALREG(cntfrq_el0);
}

int
fbsd_md_text_write(uintptr_t addr, const void *bytes, size_t len)
{
	memcpy((void *)addr, bytes, len);
	cpu_icache_sync_range(addr, len);
	return 0;
}

register_t
fbsd_md_user_open(void)
{
	return 0;
}

void
fbsd_md_user_close(register_t cookie)
{
	(void)cookie;
}

static int (*fbsd_saved_jump_addr)(struct trapframe *);

void
fbsd_md_invop_install(void)
{
	fbsd_saved_jump_addr = dtrace_invop_jump_addr;
	dtrace_invop_jump_addr = fbsd_breakpoint_hook;
}

void
fbsd_md_invop_remove(void)
{
	dtrace_invop_jump_addr = fbsd_saved_jump_addr;
}

/* The EL1 exception entry (exception.S save_registers) keeps 128 bytes
 * between the interrupted sp and the trapframe, for DTrace's emulated store
 * pair, and returns through the trapframe's sp. */
const size_t fbsd_md_stack_gap = 128;
