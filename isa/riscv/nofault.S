/*
 * isa/riscv/nofault.S: loads and copies that a port can recover from.
 *
 * Leaf functions between isa_nofault_begin and isa_nofault_end that touch
 * neither the stack nor ra, so the port's fault handler can resume at
 * isa_nofault_pad (a bare `ret`) after putting the faulting address in a0
 * and its fault code in a1: the caller receives {a0, a1}.  Assembled
 * without compressed instructions so the labels are where they seem.
 */
	.option norvc
	.text
	.p2align 4
	.globl isa_nofault_begin
	.hidden isa_nofault_begin
isa_nofault_begin:

	.globl isa_nofault_load8
	.type isa_nofault_load8, @function
isa_nofault_load8:
	li a1, 0
	lbu a0, 0(a0)
	ret
	.size isa_nofault_load8, .-isa_nofault_load8

	.globl isa_nofault_load16
	.type isa_nofault_load16, @function
isa_nofault_load16:
	li a1, 0
	lhu a0, 0(a0)
	ret
	.size isa_nofault_load16, .-isa_nofault_load16

	.globl isa_nofault_load32
	.type isa_nofault_load32, @function
isa_nofault_load32:
	li a1, 0
	lwu a0, 0(a0)
	ret
	.size isa_nofault_load32, .-isa_nofault_load32

	.globl isa_nofault_load64
	.type isa_nofault_load64, @function
isa_nofault_load64:
	li a1, 0
	ld a0, 0(a0)
	ret
	.size isa_nofault_load64, .-isa_nofault_load64

/* (dst a0, src a1, len a2) */
	.globl isa_nofault_copy
	.type isa_nofault_copy, @function
isa_nofault_copy:
	mv a3, a2
	beqz a2, 2f
1:	lbu t0, 0(a1)
	sb t0, 0(a0)
	addi a1, a1, 1
	addi a0, a0, 1
	addi a2, a2, -1
	bnez a2, 1b
2:	mv a0, a3
	li a1, 0
	ret
	.size isa_nofault_copy, .-isa_nofault_copy

/* (dst a0, src a1, len a2): stops after the NUL */
	.globl isa_nofault_copystr
	.type isa_nofault_copystr, @function
isa_nofault_copystr:
	li a3, 0
1:	bgeu a3, a2, 2f
	add t1, a1, a3
	lbu t0, 0(t1)
	add t1, a0, a3
	sb t0, 0(t1)
	addi a3, a3, 1
	bnez t0, 1b
2:	mv a0, a3
	li a1, 0
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
