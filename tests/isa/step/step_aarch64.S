/*
 * tests/isa/step/step_aarch64.S: the aarch64 cases of step_cross.c.
 *
 * CASE setup, "instruction" [, "after", "after"] makes one case: load every
 * register (x0-x30, sp) and NZCV from st.in, run the instruction, then the
 * optional instructions "after" on fall-through (they move what the
 * instruction left in a vector register into general ones), and store the
 * state at landing A (fall-through, label 1) or B (label 2, the target the
 * instruction's text names "2f").  Label 3 is 32 bytes of literal data the
 * instruction may name "3f".  Each case adds a record {text, entry,
 * instruction, landing B, setup, literal} to the section step_cases.
 * The cases live in .text.step_cases, which step_cross.c makes writable to
 * place its breakpoints.
 */
#include "step_cross.h"

/* Setups (step_cross.c applies them to st.in after the flags). */
#define S_NONE 0
#define S_X1_LANDB 1
#define S_X30_LANDB 2
#define S_X3_ZERO 3
#define S_X9_BITS 4
#define S_X0_DATA 5
#define S_X8_GETPID 6
#define S_X1_DATA_X2_2 7
#define S_X3_HIGH 8

	.arch armv8.5-a+lse+rcpc

.macro CASE setup, insn, after1=nop, after2=nop
	.pushsection .rodata.step_names, "a"
9:	.asciz "\insn"
	.popsection
	.pushsection step_cases, "aw"
	.p2align 3
	.quad 9b, 10f, 11f, 2f, \setup, 3f
	.popsection
	.p2align 4
10:	adrp x16, st
	add x16, x16, :lo12:st
	stp x19, x20, [x16, #ST_HOST]
	stp x21, x22, [x16, #ST_HOST + 16]
	stp x23, x24, [x16, #ST_HOST + 32]
	stp x25, x26, [x16, #ST_HOST + 48]
	stp x27, x28, [x16, #ST_HOST + 64]
	stp x29, x30, [x16, #ST_HOST + 80]
	mov x17, sp
	str x17, [x16, #ST_HOST + 96]
	ldr x17, [x16, #ST_IN_FLAGS]
	msr nzcv, x17
	ldr x17, [x16, #ST_IN + 248]
	mov sp, x17
	add x30, x16, #ST_IN
	ldp x0, x1, [x30]
	ldp x2, x3, [x30, #16]
	ldp x4, x5, [x30, #32]
	ldp x6, x7, [x30, #48]
	ldp x8, x9, [x30, #64]
	ldp x10, x11, [x30, #80]
	ldp x12, x13, [x30, #96]
	ldp x14, x15, [x30, #112]
	ldp x16, x17, [x30, #128]
	ldp x18, x19, [x30, #144]
	ldp x20, x21, [x30, #160]
	ldp x22, x23, [x30, #176]
	ldp x24, x25, [x30, #192]
	ldp x26, x27, [x30, #208]
	ldp x28, x29, [x30, #224]
	ldr x30, [x30, #240]
11:	\insn
	\after1
	\after2
1:	stp x16, x30, [sp, #-16]!
	mov x16, #1
	b case_land
2:	stp x16, x30, [sp, #-16]!
	mov x16, #2
	b case_land
	.p2align 4
3:	.quad 0x80000000fffffff0, 0x1122334455667788, 0x0123456789abcdef, 0xfedcba9876543210
.endm

	.section .text.step_cases, "ax"
	.p2align 12
	.globl step_cases_text
step_cases_text:

/* At either landing: x16 = 1 or 2, and [sp] = {x16, x30} as the case left
 * them.  Store everything, then return to the C caller. */
case_land:
	adrp x30, st
	add x30, x30, :lo12:st
	str x16, [x30, #ST_LANDING]
	add x30, x30, #ST_OUT
	stp x0, x1, [x30]
	stp x2, x3, [x30, #16]
	stp x4, x5, [x30, #32]
	stp x6, x7, [x30, #48]
	stp x8, x9, [x30, #64]
	stp x10, x11, [x30, #80]
	stp x12, x13, [x30, #96]
	stp x14, x15, [x30, #112]
	str x17, [x30, #136]
	stp x18, x19, [x30, #144]
	stp x20, x21, [x30, #160]
	stp x22, x23, [x30, #176]
	stp x24, x25, [x30, #192]
	stp x26, x27, [x30, #208]
	stp x28, x29, [x30, #224]
	mrs x17, nzcv
	str x17, [x30, #ST_OUT_FLAGS - ST_OUT]
	ldp x16, x17, [sp], #16
	str x16, [x30, #128]
	str x17, [x30, #240]
	mov x17, sp
	str x17, [x30, #248]
	sub x30, x30, #ST_OUT
	ldr x17, [x30, #ST_HOST + 96]
	mov sp, x17
	ldp x19, x20, [x30, #ST_HOST]
	ldp x21, x22, [x30, #ST_HOST + 16]
	ldp x23, x24, [x30, #ST_HOST + 32]
	ldp x25, x26, [x30, #ST_HOST + 48]
	ldp x27, x28, [x30, #ST_HOST + 64]
	ldp x29, x30, [x30, #ST_HOST + 80]
	ret

	/* emulated: no-ops and direct branches */
	CASE S_NONE, "nop"
	CASE S_NONE, "bti c"
	CASE S_NONE, "b 2f"
	CASE S_NONE, "bl 2f"
	CASE S_NONE, "b.eq 2f"
	CASE S_NONE, "b.ne 2f"
	CASE S_NONE, "b.cs 2f"
	CASE S_NONE, "b.cc 2f"
	CASE S_NONE, "b.mi 2f"
	CASE S_NONE, "b.pl 2f"
	CASE S_NONE, "b.vs 2f"
	CASE S_NONE, "b.vc 2f"
	CASE S_NONE, "b.hi 2f"
	CASE S_NONE, "b.ls 2f"
	CASE S_NONE, "b.ge 2f"
	CASE S_NONE, "b.lt 2f"
	CASE S_NONE, "b.gt 2f"
	CASE S_NONE, "b.le 2f"
	CASE S_NONE, "b.al 2f"
	CASE S_NONE, "b.nv 2f"
	CASE S_X3_ZERO, "cbz x3, 2f"
	CASE S_NONE, "cbz x3, 2f"
	CASE S_X3_HIGH, "cbz w3, 2f"
	CASE S_X3_HIGH, "cbz x3, 2f"
	CASE S_X3_HIGH, "cbnz w3, 2f"
	CASE S_X3_ZERO, "cbnz x3, 2f"
	CASE S_NONE, "cbnz x3, 2f"
	CASE S_NONE, "cbnz w3, 2f"
	CASE S_X9_BITS, "tbz x9, #63, 2f"
	CASE S_X9_BITS, "tbnz x9, #63, 2f"
	CASE S_X9_BITS, "tbz w9, #3, 2f"
	CASE S_X9_BITS, "tbz w9, #2, 2f"
	CASE S_X9_BITS, "tbnz w9, #2, 2f"
	/* emulated: register branches */
	CASE S_X1_LANDB, "br x1"
	CASE S_X1_LANDB, "blr x1"
	CASE S_X1_LANDB, "ret x1"
	CASE S_X30_LANDB, "ret"
	CASE S_X30_LANDB, "blr x30"
	/* emulated: PC-relative values and literals */
	CASE S_NONE, "adr x0, 3f"
	CASE S_NONE, "adr x7, 2f"
	CASE S_NONE, "adrp x0, 3f"
	CASE S_NONE, "adrp x29, st"
	CASE S_NONE, "ldr w3, 3f"
	CASE S_NONE, "ldr x4, 3f"
	CASE S_NONE, "ldrsw x5, 3f"
	CASE S_NONE, "ldrsw x5, 3f + 4"
	CASE S_NONE, "prfm pldl1keep, 3f"
	CASE S_NONE, "ldr xzr, 3f"
	/* rewritten: SIMD&FP literals through a borrowed x16 */
	CASE S_NONE, "ldr s0, 3f", "fmov w6, s0"
	CASE S_NONE, "ldr d1, 3f + 8", "fmov x6, d1"
	CASE S_NONE, "ldr q2, 3f + 16", "mov x6, v2.d[0]", "mov x7, v2.d[1]"
	/* emulated: prologue and epilogue */
	CASE S_NONE, "stp x29, x30, [sp, #-32]!"
	CASE S_NONE, "stp x19, x20, [sp, #16]"
	CASE S_NONE, "ldp x29, x30, [sp], #32"
	CASE S_NONE, "ldp x19, x20, [sp, #16]"
	CASE S_X0_DATA, "stp xzr, x1, [x0, #-8]"
	CASE S_X0_DATA, "ldp x1, x2, [x0, #-16]!"
	CASE S_NONE, "sub sp, sp, #0x40"
	CASE S_NONE, "mov x29, sp"
	CASE S_NONE, "add sp, sp, #0x10"
	CASE S_NONE, "sub x3, x4, #0xfff"
	CASE S_NONE, "add x5, x6, #1, lsl #12"
	CASE S_NONE, "mov x0, x1"
	CASE S_NONE, "mov x1, xzr"
	/* out of line: copy and brk */
	CASE S_NONE, "add x0, x1, x2"
	CASE S_NONE, "adds x0, x1, #1"
	CASE S_NONE, "subs x0, x1, x1"
	CASE S_NONE, "mov w0, w1"
	CASE S_NONE, "csel x0, x1, x2, eq"
	CASE S_NONE, "cset x0, lt"
	CASE S_NONE, "mrs x0, nzcv"
	CASE S_NONE, "ldr x0, [sp, #8]"
	CASE S_NONE, "str x0, [sp, #-16]!"
	CASE S_X1_DATA_X2_2, "ldr x0, [x1, x2, lsl #3]"
	CASE S_X0_DATA, "ldar x3, [x0]"
	CASE S_X0_DATA, "cas x1, x2, [x0]"
	CASE S_X0_DATA, "ldaddal x1, x2, [x0]"
	CASE S_NONE, "dmb ish"
	CASE S_NONE, "paciasp"
	CASE S_X8_GETPID, "svc #0"
	.globl step_cases_end
step_cases_end:

	.data
	.p2align 4
	.globl st, case_data
st:	.space ST_SIZE
	.p2align 4
case_data:
	.space DATA_SIZE

	.section .note.GNU-stack, "", %progbits
