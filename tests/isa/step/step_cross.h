/*
 * tests/isa/step/step_cross.h: the state block shared by step_cross.c and
 * the case files step_aarch64.S / step_riscv.S.
 *
 * A case loads every general register (but those the C runtime needs
 * intact: riscv's gp and tp) and the flags from st_in, runs the one
 * instruction under test, and at either landing (fall-through A, branch
 * target B) stores every register and the flags into st_out and which
 * landing it reached, then returns to its C caller with the caller's
 * callee-saved registers and stack pointer put back.
 */
#ifndef DTRACE_TESTS_ISA_STEP_CROSS_H
#define DTRACE_TESTS_ISA_STEP_CROSS_H

#define ST_HOST 0	 /* 16 words: the caller's registers */
#define ST_IN 128	 /* 32 words: aarch64 x0-x30, sp; riscv x0-x31 (x0 unused) */
#define ST_IN_FLAGS 384	 /* aarch64 NZCV (pstate bits 31:28) */
#define ST_OUT 392
#define ST_OUT_FLAGS 648
#define ST_LANDING 656 /* 1: fell through, 2: branch target */
#define ST_SIZE 664

#define DATA_SIZE 128 /* case_data: bytes an instruction may touch */

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct step_state {
	uint64_t host[16];
	uint64_t in[32];
	uint64_t in_flags;
	uint64_t out[32];
	uint64_t out_flags;
	uint64_t landing;
} step_state_t;

_Static_assert(sizeof(step_state_t) == ST_SIZE, "step_state_t layout");

extern step_state_t st;
extern uint8_t case_data[DATA_SIZE];
extern char step_cases_text[], step_cases_end[];
#endif

#endif
