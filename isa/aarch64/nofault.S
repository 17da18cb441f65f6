/*
 * isa/aarch64/nofault.S: loads and copies that a port can recover from.
 *
 * Leaf functions between isa_nofault_begin and isa_nofault_end that touch
 * neither the stack nor x30 before a faulting access, so the port's fault
 * handler can resume at isa_nofault_pad (a bare `ret` to x30) after putting
 * the faulting address in x0 and its fault code in x1: the caller receives
 * them as isa_nofault_result_t {x0, x1}.
 */
	.text
	.p2align 4
	.globl isa_nofault_begin
	.hidden isa_nofault_begin
isa_nofault_begin:

	.globl isa_nofault_load8
	.type isa_nofault_load8, %function
isa_nofault_load8:
	mov x1, xzr
	ldrb w0, [x0]
	ret
	.size isa_nofault_load8, .-isa_nofault_load8

	.globl isa_nofault_load16
	.type isa_nofault_load16, %function
isa_nofault_load16:
	mov x1, xzr
	ldrh w0, [x0]
	ret
	.size isa_nofault_load16, .-isa_nofault_load16

	.globl isa_nofault_load32
	.type isa_nofault_load32, %function
isa_nofault_load32:
	mov x1, xzr
	ldr w0, [x0]
	ret
	.size isa_nofault_load32, .-isa_nofault_load32

	.globl isa_nofault_load64
	.type isa_nofault_load64, %function
isa_nofault_load64:
	mov x1, xzr
	ldr x0, [x0]
	ret
	.size isa_nofault_load64, .-isa_nofault_load64

/* (dst x0, src x1, len x2) */
	.globl isa_nofault_copy
	.type isa_nofault_copy, %function
isa_nofault_copy:
	mov x3, x2
	cbz x2, 2f
1:	ldrb w4, [x1], #1
	strb w4, [x0], #1
	subs x2, x2, #1
	b.ne 1b
2:	mov x0, x3
	mov x1, xzr
	ret
	.size isa_nofault_copy, .-isa_nofault_copy

/* (dst x0, src x1, len x2): stops after the NUL */
	.globl isa_nofault_copystr
	.type isa_nofault_copystr, %function
isa_nofault_copystr:
	mov x3, xzr
1:	cmp x3, x2
	b.hs 2f
	ldrb w4, [x1, x3]
	strb w4, [x0, x3]
	add x3, x3, #1
	cbnz w4, 1b
2:	mov x0, x3
	mov x1, xzr
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

	.section .note.GNU-stack,"",%progbits
