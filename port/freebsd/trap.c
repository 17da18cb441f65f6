/*
 * port/freebsd/trap.c: the two trap hooks FreeBSD's trap code offers DTrace,
 * and what kernel/nofault.c needs to run port.h's nofault loads (section 3).
 *
 * Nofault.  FreeBSD's own dtrace_fuword*() and dtrace_copy*() live in the
 * dtrace.ko this module replaces, so they are not ours to call.  Loads and
 * copies (kernel/nofault.c) run isa/'s primitives, which sit between isa_nofault_begin and
 * isa_nofault_end and keep nothing on the stack.  trap() calls
 * dtrace_trap_func (sys/dtrace_bsd.h) for kernel-mode page and protection
 * faults (amd64 T_PAGEFLT/T_PROTFLT, arm64 data aborts, riscv load/store
 * faults) before it tries to resolve them; fbsd_trap() claims a fault only
 * when the faulting PC is inside the primitives, stores the address and the
 * fault code in the ISA's result registers and resumes at isa_nofault_pad,
 * so the primitive returns {address, code}.  That needs no per-CPU flag and
 * no instruction-length decoding (DTrace skips the faulting instruction).
 *
 * User addresses are refused at or above VM_MAXUSER_ADDRESS before any load,
 * and loaded with SMAP opened on amd64 (md_x86_64.c).  Toxic kernel ranges
 * (device memory mapped in the kernel's address space) are not yet refused:
 * FreeBSD's dtrace.ko keeps no such list on amd64 either, relying on
 * privileges.
 *
 * Breakpoints.  The kernel calls dtrace_invop_jump_addr for a breakpoint in
 * kernel mode (amd64: jumps to it from the trap entry with the trapframe on
 * the stack; arm64/riscv: calls it with the trapframe).  md_<isa>.c sets it
 * at load and puts back what was there at unload; its hook (arm64/riscv:
 * fbsd_breakpoint_hook below) hands the registers to fbt and kinst with
 * instprov_breakpoint() (kernel/instprov.h).  Before fbt and kinst are up,
 * and for any breakpoint not theirs, nothing claims the trap and the kernel
 * treats it as its own (amd64: calltrap).
 */
#include "freebsd_impl.h"
#include "instprov.h"
#include "kernel_port.h"

#include <vm/vm.h>
#include <vm/vm_param.h>
#include <vm/pmap.h>

static dtrace_trap_func_t fbsd_saved_trap_func;

static int
fbsd_trap(struct trapframe *tf, u_int type)
{
	uintptr_t pc, addr;
	int code;

	if ((code = fbsd_md_memfault(tf, type, &pc, &addr)) == 0 || !isa_nofault_contains(pc))
		return 0;
	fbsd_md_resume(tf, (uintptr_t)isa_nofault_pad, addr, (uint64_t)code);
	return 1;
}

int
fbsd_trap_init(void)
{
	fbsd_saved_trap_func = dtrace_trap_func;
	dtrace_trap_func = fbsd_trap;
	fbsd_md_invop_install();
	return 0;
}

int
fbsd_trap_fini(void)
{
	fbsd_md_invop_remove();
	dtrace_trap_func = fbsd_saved_trap_func;
	return 0;
}

bool
fbsd_breakpoint(const struct trapframe *tf, isa_regs_t *regs)
{
	fbsd_md_regs(tf, regs);
	return instprov_breakpoint(regs, &fbsd_cpu_self()->fc_trapregs);
}

/* The hook of the kernels that call a C function (arm64, riscv); the
 * kernel ignores its value: a claimed trap resumes where *tf now says. */
int
fbsd_breakpoint_hook(struct trapframe *tf)
{
	isa_regs_t regs;

	if (!fbsd_breakpoint(tf, &regs))
		return 0;
	fbsd_md_regs_apply(tf, &regs);
	return 1;
}

uintptr_t
kern_user_limit(void)
{
	return VM_MAXUSER_ADDRESS;
}

/* Faults resume at the pad with their result: only user access to open. */
uintptr_t
kern_nofault_enter(int space)
{
	return space == DTRACE_AS_USER ? (uintptr_t)fbsd_md_user_open() : 0;
}

void
kern_nofault_exit(int space, uintptr_t cookie, isa_nofault_result_t *r)
{
	(void)r;
	if (space == DTRACE_AS_USER)
		fbsd_md_user_close((register_t)cookie);
}
