/*
 * port/netbsd/md_x86_64_invop.S: the kernel breakpoint entry on amd64.
 *
 * NetBSD's int3 vector (amd64_trap.S, KDTRACE_HOOKS) builds a full struct
 * trapframe, enables interrupts and, when dtrace_invop_jump_addr is set,
 * jumps there with %rsp pointing at the frame; the kernel's own trap path
 * is at dtrace_invop_calltrap_addr.  Here:
 *  - the frame is first moved DTNB_FRAME_MOVE bytes down the stack, so
 *    that whatever the probe's emulation stores just below the interrupted
 *    %rsp (a push) cannot land on the frame we return through;
 *  - dtnb_invop(frame) (md_x86_64_trap.c) decides; 0 gives the trap back to
 *    the kernel (calltrap, which accepts the frame anywhere on the stack);
 *  - otherwise the registers are reloaded from the frame, which dtnb_invop
 *    updated, and iretq resumes the kernel where and as it says.
 * Offsets of struct trapframe (machine/frame_regs.h) are checked against
 * the header by CTASSERTs in md_x86_64_trap.c.
 */
#define TF_RDI 0
#define TF_RSI 8
#define TF_RDX 16
#define TF_R10 24
#define TF_R8 32
#define TF_R9 40
#define TF_RCX 80
#define TF_R11 88
#define TF_R12 96
#define TF_R13 104
#define TF_R14 112
#define TF_R15 120
#define TF_RBP 128
#define TF_RBX 136
#define TF_RAX 144
#define TF_RIP 200
#define TF_SIZE 240
#define DTNB_FRAME_MOVE 256

	.text
	.globl dtnb_invop_entry
	.type dtnb_invop_entry, @function
	.p2align 4
dtnb_invop_entry:
	/* Every register is saved in the frame: all are free here. */
	movq %rsp, %rsi
	leaq -DTNB_FRAME_MOVE(%rsp), %rdi
	movl $(TF_SIZE / 8), %ecx
	cld
	rep movsq
	subq $DTNB_FRAME_MOVE, %rsp
	movq %rsp, %rdi
	call dtnb_invop
	testl %eax, %eax
	jz 1f
	movq TF_RSI(%rsp), %rsi
	movq TF_RDX(%rsp), %rdx
	movq TF_RCX(%rsp), %rcx
	movq TF_R8(%rsp), %r8
	movq TF_R9(%rsp), %r9
	movq TF_R10(%rsp), %r10
	movq TF_R11(%rsp), %r11
	movq TF_R12(%rsp), %r12
	movq TF_R13(%rsp), %r13
	movq TF_R14(%rsp), %r14
	movq TF_R15(%rsp), %r15
	movq TF_RBP(%rsp), %rbp
	movq TF_RBX(%rsp), %rbx
	movq TF_RAX(%rsp), %rax
	movq TF_RDI(%rsp), %rdi
	addq $TF_RIP, %rsp
	iretq
1:	jmpq *dtrace_invop_calltrap_addr(%rip)
	.size dtnb_invop_entry, .-dtnb_invop_entry

	.section .note.GNU-stack,"",@progbits
