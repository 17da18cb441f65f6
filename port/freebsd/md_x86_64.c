/*
 * port/freebsd/md_x86_64.c: the amd64 pieces of the FreeBSD backend.
 *
 * Trap frames map one to one onto isa_regs_t (the illumos regset order of
 * isa/x86_64/isa_regs.h).  Page faults carry their address in tf_addr
 * (%cr2, saved by the trap entry); a general-protection fault (a
 * non-canonical address) has none and is DTrace's ILLOP.  gethrtime counts
 * the TSC at tsc_freq.  Kernel text is written with interrupts off and
 * CR0.WP cleared (disable_wp/restore_wp).  With SMAP the kernel may touch
 * user pages only between stac and clac.
 *
 * The breakpoint hook is not a C function on amd64: the trap entry jumps
 * through dtrace_invop_jump_addr with the trapframe at %rsp (interrupts
 * still off) after storing calltrap in dtrace_invop_calltrap_addr.
 * md_x86_64_invop.S calls fbsd_md_invop_trap() and either continues at
 * calltrap (not ours) or returns from the trap into the per-CPU register
 * set filled here, never into the trapframe: an emulated push may write the
 * interrupted stack right where the trapframe lies.
 */
#include "freebsd_impl.h"

#include <machine/cpu.h>
#include <machine/clock.h>
#include <machine/md_var.h>
#include <machine/trap.h>
#include <x86/specialreg.h>

/* Both are defined by the kernel's exception.S and declared in no header. */
extern uintptr_t dtrace_invop_jump_addr;
void fbsd_invop_entry(void);

static const struct {
	uint8_t isa;
	uint8_t off; /* offset of the trapframe field */
} fbsd_tf_map[] = {
	{ISA_REG_R15, offsetof(struct trapframe, tf_r15)},
	{ISA_REG_R14, offsetof(struct trapframe, tf_r14)},
	{ISA_REG_R13, offsetof(struct trapframe, tf_r13)},
	{ISA_REG_R12, offsetof(struct trapframe, tf_r12)},
	{ISA_REG_R11, offsetof(struct trapframe, tf_r11)},
	{ISA_REG_R10, offsetof(struct trapframe, tf_r10)},
	{ISA_REG_R9, offsetof(struct trapframe, tf_r9)},
	{ISA_REG_R8, offsetof(struct trapframe, tf_r8)},
	{ISA_REG_RDI, offsetof(struct trapframe, tf_rdi)},
	{ISA_REG_RSI, offsetof(struct trapframe, tf_rsi)},
	{ISA_REG_RBP, offsetof(struct trapframe, tf_rbp)},
	{ISA_REG_RBX, offsetof(struct trapframe, tf_rbx)},
	{ISA_REG_RDX, offsetof(struct trapframe, tf_rdx)},
	{ISA_REG_RCX, offsetof(struct trapframe, tf_rcx)},
	{ISA_REG_RAX, offsetof(struct trapframe, tf_rax)},
	{ISA_REG_ERR, offsetof(struct trapframe, tf_err)},
	{ISA_REG_RIP, offsetof(struct trapframe, tf_rip)},
	{ISA_REG_CS, offsetof(struct trapframe, tf_cs)},
	{ISA_REG_RFL, offsetof(struct trapframe, tf_rflags)},
	{ISA_REG_RSP, offsetof(struct trapframe, tf_rsp)},
	{ISA_REG_SS, offsetof(struct trapframe, tf_ss)},
};

void
fbsd_md_regs(const struct trapframe *tf, isa_regs_t *regs)
{
	memset(regs, 0, sizeof(*regs));
	for (size_t i = 0; i < nitems(fbsd_tf_map); i++)
		memcpy(&regs->r[fbsd_tf_map[i].isa], (const char *)tf + fbsd_tf_map[i].off, 8);
	regs->r[ISA_REG_TRAPNO] = (uint64_t)tf->tf_trapno;
	regs->r[ISA_REG_FS] = (uint64_t)tf->tf_fs;
	regs->r[ISA_REG_GS] = (uint64_t)tf->tf_gs;
	regs->r[ISA_REG_ES] = (uint64_t)tf->tf_es;
	regs->r[ISA_REG_DS] = (uint64_t)tf->tf_ds;
}

void
fbsd_md_regs_apply(struct trapframe *tf, const isa_regs_t *regs)
{
	for (size_t i = 0; i < nitems(fbsd_tf_map); i++) {
		if (fbsd_tf_map[i].isa != ISA_REG_CS && fbsd_tf_map[i].isa != ISA_REG_SS)
			memcpy((char *)tf + fbsd_tf_map[i].off, &regs->r[fbsd_tf_map[i].isa], 8);
	}
}

int
fbsd_md_memfault(const struct trapframe *tf, u_int type, uintptr_t *pc, uintptr_t *addr)
{
	if (TRAPF_USERMODE(tf))
		return 0;
	*pc = (uintptr_t)tf->tf_rip;
	if (type == T_PAGEFLT) {
		*addr = (uintptr_t)tf->tf_addr;
		return DTRACEFLT_BADADDR;
	}
	if (type == T_PROTFLT) {
		*addr = 0;
		return DTRACEFLT_ILLOP;
	}
	return 0;
}

void
fbsd_md_resume(struct trapframe *tf, uintptr_t pc, uint64_t ret0, uint64_t ret1)
{
	tf->tf_rip = (register_t)pc;
	tf->tf_rax = (register_t)ret0;
	tf->tf_rdx = (register_t)ret1;
}

uint64_t
fbsd_md_counter(void)
{
	return rdtsc();
}

uint64_t
fbsd_md_counter_freq(void)
{
	return tsc_freq;
}

int
fbsd_md_text_write(uintptr_t addr, const void *bytes, size_t len)
{
	register_t s = intr_disable();
	bool wp = disable_wp();

	memcpy((void *)addr, bytes, len);
	restore_wp(wp);
	intr_restore(s);
	return 0;
}

register_t
fbsd_md_user_open(void)
{
	if ((cpu_stdext_feature & CPUID_STDEXT_SMAP) == 0)
		return 0;
	stac();
	return 1;
}

void
fbsd_md_user_close(register_t opened)
{
	if (opened)
		clac();
}

/* The registers md_x86_64_invop.S returns into, per CPU, used with
 * interrupts off between the trap and its iretq.  A breakpoint can nest in
 * the handler (an fbt probe on a kernel function probe context calls, which
 * the core then refuses to fire), so each CPU has a few, used as a stack:
 * the inner trap takes the next set and leaves the outer one alone. */
#define FBSD_RESUME_DEPTH 4
static isa_regs_t fbsd_resume[MAXCPU][FBSD_RESUME_DEPTH];
static int fbsd_resume_depth[MAXCPU];

isa_regs_t *fbsd_md_invop_trap(const struct trapframe *tf);

isa_regs_t *
fbsd_md_invop_trap(const struct trapframe *tf)
{
	u_int cpu = curcpu;
	int d = fbsd_resume_depth[cpu];
	isa_regs_t *regs;
	/* Read before the engine runs: an emulated push or call stores just
	 * below the interrupted %rsp, which may be inside this very frame. */
	uint64_t cs = (uint64_t)tf->tf_cs, ss = (uint64_t)tf->tf_ss;
	bool claimed;

	if (d >= FBSD_RESUME_DEPTH)
		return NULL; /* nested too deep: the kernel's own breakpoint path */
	regs = &fbsd_resume[cpu][d];
	fbsd_resume_depth[cpu] = d + 1;
	claimed = fbsd_breakpoint(tf, regs);
	fbsd_resume_depth[cpu] = d;
	if (!claimed)
		return NULL;
	/* iretq needs the kernel's selectors whatever the engine did */
	regs->r[ISA_REG_CS] = cs;
	regs->r[ISA_REG_SS] = ss;
	return regs;
}

static uintptr_t fbsd_saved_jump_addr;

void
fbsd_md_invop_install(void)
{
	fbsd_saved_jump_addr = dtrace_invop_jump_addr;
	dtrace_invop_jump_addr = (uintptr_t)fbsd_invop_entry;
}

void
fbsd_md_invop_remove(void)
{
	dtrace_invop_jump_addr = fbsd_saved_jump_addr;
}

/* Emulated pushes and calls store below %rsp into the trapframe, which was
 * read before the engine ran: the thread resumes from the copy above. */
const size_t fbsd_md_stack_gap = SIZE_MAX;
