/*
 * isa/x86_64/nofault.S: loads and copies that a port can recover from.
 *
 * Everything between isa_nofault_begin and isa_nofault_end is a leaf that
 * never touches the stack before its faulting instruction, so the port's
 * fault handler can resume at isa_nofault_pad with %rsp still pointing at
 * the caller's return address.  The handler puts the faulting address in
 * %rax and its fault code in %rdx; the pad returns them as the result.  Callers read the
 * result as isa_nofault_result_t (two words in %rax:%rdx, SysV ABI).
 */
	.text
	.p2align 4
	.globl isa_nofault_begin
	.hidden isa_nofault_begin
isa_nofault_begin:

	.globl isa_nofault_load8
	.type isa_nofault_load8, @function
isa_nofault_load8:
	xorl %edx, %edx
	movzbl (%rdi), %eax
	ret
	.size isa_nofault_load8, .-isa_nofault_load8

	.globl isa_nofault_load16
	.type isa_nofault_load16, @function
isa_nofault_load16:
	xorl %edx, %edx
	movzwl (%rdi), %eax
	ret
	.size isa_nofault_load16, .-isa_nofault_load16

	.globl isa_nofault_load32
	.type isa_nofault_load32, @function
isa_nofault_load32:
	xorl %edx, %edx
	movl (%rdi), %eax
	ret
	.size isa_nofault_load32, .-isa_nofault_load32

	.globl isa_nofault_load64
	.type isa_nofault_load64, @function
isa_nofault_load64:
	xorl %edx, %edx
	movq (%rdi), %rax
	ret
	.size isa_nofault_load64, .-isa_nofault_load64

/* (dst %rdi, src %rsi, len %rdx): rep movsb leaves %rsi/%rdi at the fault. */
	.globl isa_nofault_copy
	.type isa_nofault_copy, @function
isa_nofault_copy:
	movq %rdx, %rcx
	movq %rdx, %r8
	cld
	rep movsb
	movq %r8, %rax
	xorl %edx, %edx
	ret
	.size isa_nofault_copy, .-isa_nofault_copy

/* (dst %rdi, src %rsi, len %rdx): byte loop, stops after the NUL. */
	.globl isa_nofault_copystr
	.type isa_nofault_copystr, @function
isa_nofault_copystr:
	xorl %eax, %eax
1:	cmpq %rdx, %rax
	jae 2f
	movzbl (%rsi,%rax), %ecx
	movb %cl, (%rdi,%rax)
	incq %rax
	testb %cl, %cl
	jnz 1b
2:	xorl %edx, %edx
	ret
	.size isa_nofault_copystr, .-isa_nofault_copystr

	.globl isa_nofault_pad
	.hidden isa_nofault_pad
isa_nofault_pad:
	ret

	.globl isa_nofault_end
	.hidden isa_nofault_end
isa_nofault_end:
	nop

	.section .note.GNU-stack,"",@progbits
