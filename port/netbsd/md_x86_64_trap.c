/*
 * port/netbsd/md_x86_64_trap.c: the amd64 kernel's DTrace trap hooks.
 *
 * Two hooks, both installed at load only if free (another DTrace module
 * owns them otherwise) and put back exactly at unload:
 *  - dtrace_trap_func (sys/dtrace_bsd.h, defined in amd64 trap.c): trap()
 *    calls it first for T_PROTFLT and T_PAGEFLT.  A fault inside a nofault
 *    primitive goes to its landing pad with the address (%cr2 for a page
 *    fault) in %rax and DTRACEFLT_BADADDR in %rdx (isa/x86_64/nofault.S).
 *  - dtrace_invop_jump_addr (amd64_trap.S, no header): where the int3
 *    vector jumps with the trap frame; see md_x86_64_invop.S.  dtnb_invop()
 *    hands the registers to fbt and kinst (instprov_breakpoint, which
 *    publishes them for stack() and arguments meanwhile).
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/dtrace_bsd.h>
#include <sys/lwp.h>
#include <sys/proc.h>
#include <machine/cpufunc.h>
#include <machine/frame.h>
#include <machine/segments.h>
#include <machine/trap.h>
#include <machine/vmparam.h>

#include "netbsd_impl.h"
#include "instprov.h"

/* Defined in the kernel's amd64_trap.S under KDTRACE_HOOKS. */
extern void *dtrace_invop_jump_addr;
/* md_x86_64_invop.S */
void dtnb_invop_entry(void);
int dtnb_invop(struct trapframe *tf);

/* The offsets md_x86_64_invop.S uses. */
CTASSERT(offsetof(struct trapframe, tf_rdi) == 0);
CTASSERT(offsetof(struct trapframe, tf_r10) == 24);
CTASSERT(offsetof(struct trapframe, tf_rcx) == 80);
CTASSERT(offsetof(struct trapframe, tf_rbx) == 136);
CTASSERT(offsetof(struct trapframe, tf_rax) == 144);
CTASSERT(offsetof(struct trapframe, tf_rip) == 200);
CTASSERT(sizeof(struct trapframe) == 240);

#define TF(f) offsetof(struct trapframe, f)
static const struct {
	unsigned reg;
	size_t off;
} dtnb_tfmap[] = {
	{ISA_REG_RDI, TF(tf_rdi)}, {ISA_REG_RSI, TF(tf_rsi)}, {ISA_REG_RDX, TF(tf_rdx)},
	{ISA_REG_RCX, TF(tf_rcx)}, {ISA_REG_R8, TF(tf_r8)},   {ISA_REG_R9, TF(tf_r9)},
	{ISA_REG_R10, TF(tf_r10)}, {ISA_REG_R11, TF(tf_r11)}, {ISA_REG_R12, TF(tf_r12)},
	{ISA_REG_R13, TF(tf_r13)}, {ISA_REG_R14, TF(tf_r14)}, {ISA_REG_R15, TF(tf_r15)},
	{ISA_REG_RBP, TF(tf_rbp)}, {ISA_REG_RBX, TF(tf_rbx)}, {ISA_REG_RAX, TF(tf_rax)},
	{ISA_REG_GS, TF(tf_gs)},   {ISA_REG_FS, TF(tf_fs)},   {ISA_REG_ES, TF(tf_es)},
	{ISA_REG_DS, TF(tf_ds)},   {ISA_REG_TRAPNO, TF(tf_trapno)}, {ISA_REG_ERR, TF(tf_err)},
	{ISA_REG_RIP, TF(tf_rip)}, {ISA_REG_CS, TF(tf_cs)},   {ISA_REG_RFL, TF(tf_rflags)},
	{ISA_REG_RSP, TF(tf_rsp)}, {ISA_REG_SS, TF(tf_ss)},
};

static void
dtnb_tf2regs(const struct trapframe *tf, isa_regs_t *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < __arraycount(dtnb_tfmap); i++)
		r->r[dtnb_tfmap[i].reg] = *(const uint64_t *)((const char *)tf + dtnb_tfmap[i].off);
}

static void
dtnb_regs2tf(const isa_regs_t *r, struct trapframe *tf)
{
	for (size_t i = 0; i < __arraycount(dtnb_tfmap); i++)
		*(uint64_t *)((char *)tf + dtnb_tfmap[i].off) = r->r[dtnb_tfmap[i].reg];
}

static dtrace_trap_func_t dtnb_saved_trap;
static void *dtnb_saved_jump;

/* A #GP (a non-canonical address) has no fault address: report where the
 * primitive was reading, %rdi for a load, %rsi for a copy. */
static int
dtnb_trap(struct trapframe *tf, u_int type)
{
	uintptr_t addr, resume;
	int code;

	if ((code = dtnb_fault((uintptr_t)tf->tf_rip, &resume)) == 0)
		return 0;
	if (type == T_PAGEFLT)
		addr = (uintptr_t)rcr2();
	else
		addr = (uintptr_t)((uintptr_t)tf->tf_rip >= (uintptr_t)isa_nofault_copy ?
					   tf->tf_rsi : tf->tf_rdi);
	tf->tf_rax = (register_t)addr;
	tf->tf_rdx = code;
	tf->tf_rip = (register_t)resume;
	return 1;
}

/* The vector has enabled interrupts again: the engine runs at IPL_HIGH,
 * which keeps this CPU's handlers, preemption and cross-calls out. */
int
dtnb_invop(struct trapframe *tf)
{
	isa_regs_t r;
	int s, claimed = 0;

	if ((tf->tf_cs & SEL_UPL) != 0)
		return 0;
	s = splhigh();
	if (cpu_index(curcpu()) < dtnb_ncpus) {
		dtnb_tf2regs(tf, &r);
		claimed = instprov_breakpoint(&r, &dtnb_curcpu()->dc_regs);
	}
	splx(s);
	if (claimed)
		dtnb_regs2tf(&r, tf);
	return claimed;
}

bool
kern_user_regs(isa_regs_t *regs)
{
	struct lwp *l = curlwp;

	if (cpu_intr_p() || l->l_proc == &proc0 || l->l_md.md_regs == NULL)
		return false;
	dtnb_tf2regs(l->l_md.md_regs, regs);
	return true;
}

uintptr_t
kern_user_limit(void)
{
	return VM_MAXUSER_ADDRESS;
}

/* md_x86_64_invop.S moves the frame DTNB_FRAME_MOVE (256) bytes down: at
 * least that much lies between the interrupted %rsp and the copy. */
const bool dtnb_md_breakpoints = true;
const size_t dtnb_md_bp_gap = 256;

int
dtnb_trap_install(void)
{
	if (dtrace_trap_func != NULL || dtrace_invop_jump_addr != NULL)
		return EBUSY;
	dtnb_saved_trap = dtrace_trap_func;
	dtnb_saved_jump = dtrace_invop_jump_addr;
	dtrace_trap_func = dtnb_trap;
	dtrace_invop_jump_addr = (void *)dtnb_invop_entry;
	return 0;
}

int
dtnb_trap_uninstall(void)
{
	dtrace_invop_jump_addr = dtnb_saved_jump;
	dtrace_trap_func = dtnb_saved_trap;
	return 0;
}
