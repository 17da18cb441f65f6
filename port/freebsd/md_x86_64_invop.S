/*
 * port/freebsd/md_x86_64_invop.S: where FreeBSD's amd64 trap entry jumps
 * for a kernel breakpoint once dtrace_invop_jump_addr is set (see
 * md_x86_64.c).  On entry %rsp is the trapframe, interrupts are off and
 * dtrace_invop_calltrap_addr holds the kernel's own continuation.
 *
 * fbsd_md_invop_trap() returns the register set to resume (an isa_regs_t:
 * the fifteen general registers in pop order, trapno and err, then rip, cs,
 * rflags, rsp and ss, the very layout iretq consumes) or 0 when no probe
 * claims the breakpoint.  The register set is per-CPU and outside the
 * interrupted stack, so the resume may move %rsp anywhere.
 */
	.text
	.p2align 4
	.globl fbsd_invop_entry
	.type fbsd_invop_entry, @function
fbsd_invop_entry:
	movq %rsp, %rdi
	call fbsd_md_invop_trap
	testq %rax, %rax
	jz 1f
	movq %rax, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rbp
	popq %rbx
	popq %rdx
	popq %rcx
	popq %rax
	addq $16, %rsp
	iretq
1:	jmpq *dtrace_invop_calltrap_addr(%rip)
	.size fbsd_invop_entry, .-fbsd_invop_entry

	.section .note.GNU-stack,"",@progbits
