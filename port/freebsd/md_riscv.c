/*
 * port/freebsd/md_riscv.c: the riscv pieces of the FreeBSD backend.
 *
 * The trap hook is called with the exception code of scause; load, store
 * and their page faults taken in supervisor mode are nofault candidates,
 * the address in stval.  gethrtime counts the time CSR; its frequency comes
 * from the device tree and is private to the timer driver, so cpu.c
 * calibrates it against sbinuptime() at load.  Kernel text: store, then
 * fence.i on every hart (fence.i orders only the hart that runs it).  User
 * memory is reachable from supervisor mode only with sstatus.SUM set, so
 * user loads set it and restore it.
 *
 * The breakpoint hook is a C function pointer defined in riscv/trap.c,
 * called for ebreak in supervisor mode.
 */
#include "freebsd_impl.h"

#include <sys/smp.h>
#include <machine/cpu.h>
#include <machine/riscvreg.h>

/* Defined in sys/riscv/riscv/trap.c, declared in no header. */
extern int (*dtrace_invop_jump_addr)(struct trapframe *);

/* isa/riscv numbers registers x0..x31; the trapframe groups them by role. */
static void
fbsd_md_map(struct trapframe *tf, uint64_t *x[32])
{
	static const int8_t t[7] = {5, 6, 7, 28, 29, 30, 31};
	static const int8_t s[12] = {8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};

	x[0] = NULL;
	x[1] = &tf->tf_ra;
	x[2] = &tf->tf_sp;
	x[3] = &tf->tf_gp;
	x[4] = &tf->tf_tp;
	for (int i = 0; i < 7; i++)
		x[t[i]] = &tf->tf_t[i];
	for (int i = 0; i < 12; i++)
		x[s[i]] = &tf->tf_s[i];
	for (int i = 0; i < 8; i++)
		x[10 + i] = &tf->tf_a[i];
}

void
fbsd_md_regs(const struct trapframe *tf, isa_regs_t *regs)
{
	uint64_t *x[32];

	fbsd_md_map(__DECONST(struct trapframe *, tf), x);
	memset(regs, 0, sizeof(*regs));
	for (int i = 1; i < 32; i++)
		regs->r[i] = *x[i];
	regs->r[ISA_REG_PC] = tf->tf_sepc;
}

void
fbsd_md_regs_apply(struct trapframe *tf, const isa_regs_t *regs)
{
	uint64_t *x[32];

	fbsd_md_map(tf, x);
	for (int i = 1; i < 32; i++)
		*x[i] = regs->r[i];
	tf->tf_sepc = regs->r[ISA_REG_PC];
}

int
fbsd_md_memfault(const struct trapframe *tf, u_int type, uintptr_t *pc, uintptr_t *addr)
{
	if (TRAPF_USERMODE(tf))
		return 0;
	switch (type) {
	case EXCP_FAULT_LOAD:
	case EXCP_FAULT_STORE:
	case EXCP_LOAD_PAGE_FAULT:
	case EXCP_STORE_PAGE_FAULT:
		*pc = (uintptr_t)tf->tf_sepc;
		*addr = (uintptr_t)tf->tf_stval;
		return DTRACEFLT_BADADDR;
	case EXCP_MISALIGNED_LOAD:
	case EXCP_MISALIGNED_STORE:
		*pc = (uintptr_t)tf->tf_sepc;
		*addr = (uintptr_t)tf->tf_stval;
		return DTRACEFLT_BADALIGN;
	}
	return 0;
}

void
fbsd_md_resume(struct trapframe *tf, uintptr_t pc, uint64_t ret0, uint64_t ret1)
{
	tf->tf_sepc = pc;
	tf->tf_a[0] = ret0;
	tf->tf_a[1] = ret1;
}

uint64_t
fbsd_md_counter(void)
{
	return rdtime();
}

uint64_t
fbsd_md_counter_freq(void)
{
	return 0;
}

static void
fbsd_md_fence_i(void *arg)
{
	(void)arg;
	fence_i();
}

int
fbsd_md_text_write(uintptr_t addr, const void *bytes, size_t len)
{
	memcpy((void *)addr, bytes, len);
	smp_rendezvous(smp_no_rendezvous_barrier, fbsd_md_fence_i, smp_no_rendezvous_barrier,
		       NULL);
	return 0;
}

register_t
fbsd_md_user_open(void)
{
	register_t was = csr_read(sstatus) & SSTATUS_SUM;

	csr_set(sstatus, SSTATUS_SUM);
	return was;
}

void
fbsd_md_user_close(register_t was)
{
	if (was == 0)
		csr_clear(sstatus, SSTATUS_SUM);
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

/* The trapframe lies right below the interrupted sp. */
const size_t fbsd_md_stack_gap = 0;
