/*
 * tests/isa/step/step_riscv.S: the riscv cases of step_cross.c.
 *
 * CASE setup, "instruction" makes one case: load every register but gp and
 * tp (the C runtime's) from st.in, run the instruction, and store the
 * state at landing A (fall-through) or B (label 2, the target the
 * instruction's text names "2f").  Label 3 is 32 bytes of literal data the
 * instruction may name "3f".  Each case adds a record {text, entry,
 * instruction, landing B, setup, literal} to the section step_cases.
 * Assembled without linker relaxation, so every instruction is the one
 * written; compressed forms are written as such (c.*).
 */
#include "step_cross.h"

#define S_NONE 0
#define S_A3_LANDB 1
#define S_RA_LANDB 2
#define S_T0_LANDB 3
#define S_A5_DATA 4
#define S_A2_DATA 5
#define S_A7_GETPID 6

	.option norelax
	.option rvc

.macro CASE setup, insn
	.pushsection .rodata.step_names, "a"
9:	.asciz "\insn"
	.popsection
	.pushsection step_cases, "aw"
	.p2align 3
	.dword 9b, 10f, 11f, 2f, \setup, 3f
	.popsection
	.p2align 4
10:	lla t6, st
	sd ra, ST_HOST(t6)
	sd sp, ST_HOST + 8(t6)
	sd s0, ST_HOST + 16(t6)
	sd s1, ST_HOST + 24(t6)
	sd s2, ST_HOST + 32(t6)
	sd s3, ST_HOST + 40(t6)
	sd s4, ST_HOST + 48(t6)
	sd s5, ST_HOST + 56(t6)
	sd s6, ST_HOST + 64(t6)
	sd s7, ST_HOST + 72(t6)
	sd s8, ST_HOST + 80(t6)
	sd s9, ST_HOST + 88(t6)
	sd s10, ST_HOST + 96(t6)
	sd s11, ST_HOST + 104(t6)
	ld x1, ST_IN + 8(t6)
	ld x2, ST_IN + 16(t6)
	ld x5, ST_IN + 40(t6)
	ld x6, ST_IN + 48(t6)
	ld x7, ST_IN + 56(t6)
	ld x8, ST_IN + 64(t6)
	ld x9, ST_IN + 72(t6)
	ld x10, ST_IN + 80(t6)
	ld x11, ST_IN + 88(t6)
	ld x12, ST_IN + 96(t6)
	ld x13, ST_IN + 104(t6)
	ld x14, ST_IN + 112(t6)
	ld x15, ST_IN + 120(t6)
	ld x16, ST_IN + 128(t6)
	ld x17, ST_IN + 136(t6)
	ld x18, ST_IN + 144(t6)
	ld x19, ST_IN + 152(t6)
	ld x20, ST_IN + 160(t6)
	ld x21, ST_IN + 168(t6)
	ld x22, ST_IN + 176(t6)
	ld x23, ST_IN + 184(t6)
	ld x24, ST_IN + 192(t6)
	ld x25, ST_IN + 200(t6)
	ld x26, ST_IN + 208(t6)
	ld x27, ST_IN + 216(t6)
	ld x28, ST_IN + 224(t6)
	ld x29, ST_IN + 232(t6)
	ld x30, ST_IN + 240(t6)
	ld x31, ST_IN + 248(t6)
11:	\insn
	addi sp, sp, -16
	sd t6, 0(sp)
	sd t5, 8(sp)
	li t5, 1
	j case_land
2:	addi sp, sp, -16
	sd t6, 0(sp)
	sd t5, 8(sp)
	li t5, 2
	j case_land
	.p2align 4
3:	.dword 0x80000000fffffff0, 0x1122334455667788, 0x0123456789abcdef, 0xfedcba9876543210
.endm

	.section .text.step_cases, "ax"
	.p2align 12
	.globl step_cases_text
step_cases_text:

/* At either landing: t5 = 1 or 2 and [sp] = {t6, t5} as the case left
 * them. */
case_land:
	lla t6, st
	sd t5, ST_LANDING(t6)
	sd x1, ST_OUT + 8(t6)
	sd x5, ST_OUT + 40(t6)
	sd x6, ST_OUT + 48(t6)
	sd x7, ST_OUT + 56(t6)
	sd x8, ST_OUT + 64(t6)
	sd x9, ST_OUT + 72(t6)
	sd x10, ST_OUT + 80(t6)
	sd x11, ST_OUT + 88(t6)
	sd x12, ST_OUT + 96(t6)
	sd x13, ST_OUT + 104(t6)
	sd x14, ST_OUT + 112(t6)
	sd x15, ST_OUT + 120(t6)
	sd x16, ST_OUT + 128(t6)
	sd x17, ST_OUT + 136(t6)
	sd x18, ST_OUT + 144(t6)
	sd x19, ST_OUT + 152(t6)
	sd x20, ST_OUT + 160(t6)
	sd x21, ST_OUT + 168(t6)
	sd x22, ST_OUT + 176(t6)
	sd x23, ST_OUT + 184(t6)
	sd x24, ST_OUT + 192(t6)
	sd x25, ST_OUT + 200(t6)
	sd x26, ST_OUT + 208(t6)
	sd x27, ST_OUT + 216(t6)
	sd x28, ST_OUT + 224(t6)
	sd x29, ST_OUT + 232(t6)
	ld t5, 8(sp)
	sd t5, ST_OUT + 240(t6)
	ld t5, 0(sp)
	sd t5, ST_OUT + 248(t6)
	addi sp, sp, 16
	sd sp, ST_OUT + 16(t6)
	ld ra, ST_HOST(t6)
	ld sp, ST_HOST + 8(t6)
	ld s0, ST_HOST + 16(t6)
	ld s1, ST_HOST + 24(t6)
	ld s2, ST_HOST + 32(t6)
	ld s3, ST_HOST + 40(t6)
	ld s4, ST_HOST + 48(t6)
	ld s5, ST_HOST + 56(t6)
	ld s6, ST_HOST + 64(t6)
	ld s7, ST_HOST + 72(t6)
	ld s8, ST_HOST + 80(t6)
	ld s9, ST_HOST + 88(t6)
	ld s10, ST_HOST + 96(t6)
	ld s11, ST_HOST + 104(t6)
	ret

	/* emulated: no-ops and direct jumps */
	CASE S_NONE, "nop"
	CASE S_NONE, "c.nop"
	CASE S_NONE, "jal zero, 2f"
	CASE S_NONE, "jal ra, 2f"
	CASE S_NONE, "jal t0, 2f"
	CASE S_NONE, "c.j 2f"
	/* branches: the variants set a0 and a1 */
	CASE S_NONE, "beq a0, a1, 2f"
	CASE S_NONE, "bne a0, a1, 2f"
	CASE S_NONE, "blt a0, a1, 2f"
	CASE S_NONE, "bge a0, a1, 2f"
	CASE S_NONE, "bltu a0, a1, 2f"
	CASE S_NONE, "bgeu a0, a1, 2f"
	CASE S_NONE, "bnez a0, 2f"
	CASE S_NONE, "c.beqz a0, 2f"
	CASE S_NONE, "c.bnez a1, 2f"
	/* register jumps */
	CASE S_A3_LANDB, "jr a3"
	CASE S_A3_LANDB, "jalr a3"
	CASE S_A3_LANDB, "jalr t1, 0(a3)"
	CASE S_T0_LANDB, "jalr t0, 0(t0)"
	CASE S_RA_LANDB, "ret"
	CASE S_RA_LANDB, "jalr ra, 0(ra)"
	CASE S_A3_LANDB, "c.jr a3"
	CASE S_A3_LANDB, "c.jalr a3"
	CASE S_RA_LANDB, "c.jr ra"
	/* PC-relative values: auipc alone, and as the first half of lla/ld */
	CASE S_NONE, "auipc a0, 0"
	CASE S_NONE, "auipc a4, 0x12345"
	CASE S_NONE, "auipc t2, 0xfffff"
	CASE S_NONE, "lla a0, 3f"
	CASE S_NONE, "ld a1, 3f"
	/* emulated: prologue and epilogue */
	CASE S_NONE, "addi sp, sp, -48"
	CASE S_NONE, "c.addi16sp sp, -64"
	CASE S_NONE, "c.addi4spn a0, sp, 24"
	CASE S_NONE, "li a0, 5"
	CASE S_NONE, "c.li a0, -7"
	CASE S_NONE, "c.addi a0, -3"
	CASE S_NONE, "mv a0, a1"
	CASE S_NONE, "c.mv a0, a1"
	CASE S_NONE, "sd ra, 8(sp)"
	CASE S_NONE, "c.sdsp ra, 8(sp)"
	CASE S_NONE, "ld ra, 8(sp)"
	CASE S_NONE, "c.ldsp ra, 24(sp)"
	CASE S_A5_DATA, "c.ld a4, 8(a5)"
	CASE S_A5_DATA, "c.sd a4, 16(a5)"
	CASE S_A5_DATA, "sd zero, 0(a5)"
	/* out of line: copy and ebreak */
	CASE S_NONE, "add a0, a1, a2"
	CASE S_NONE, "c.add a0, a1"
	CASE S_NONE, "mul a0, a1, a2"
	CASE S_NONE, "sltu a0, a1, a2"
	CASE S_NONE, "lw a0, 4(sp)"
	CASE S_A5_DATA, "c.lw a4, 4(a5)"
	CASE S_NONE, "lui a0, 0x12345"
	CASE S_NONE, "addiw a0, a1, 1"
	CASE S_NONE, "c.addiw a0, 1"
	CASE S_NONE, "slli a0, a1, 3"
	CASE S_A2_DATA, "amoadd.d a0, a1, (a2)"
	CASE S_NONE, "fence"
	CASE S_NONE, "fence.i"
	CASE S_NONE, "csrr a0, fcsr"
	CASE S_A7_GETPID, "ecall"
	.globl step_cases_end
step_cases_end:

	.data
	.p2align 4
	.globl st, case_data
st:	.space ST_SIZE
	.p2align 4
case_data:
	.space DATA_SIZE

	.section .note.GNU-stack, "", @progbits
