/*
 * regs/riscv.c: uregs[] names on RISC-V, the set FreeBSD's DTrace declares
 * (cddl/lib/libdtrace/regs_riscv.d): the ABI names of x0..x31 (R_ZERO,
 * R_RA, R_SP, R_GP, R_TP, R_T0..R_T6, R_S0..R_S11 with R_FP for s0,
 * R_A0..R_A7) and R_PC.  FreeBSD has no R_Xn names and no portable R_R0,
 * R_R1, so neither does D here.  The values are the numbering of
 * isa/riscv/regs.c (x0..x31 are 0..31, pc 32), which is FreeBSD's.
 */
#include "dt_regs.h"

const dt_regname_t dt_regnames[] = {
	{"R_ZERO", 0}, {"R_RA", 1},   {"R_SP", 2},   {"R_GP", 3},   {"R_TP", 4},   {"R_T0", 5},
	{"R_T1", 6},   {"R_T2", 7},   {"R_S0", 8},   {"R_FP", 8},   {"R_S1", 9},   {"R_A0", 10},
	{"R_A1", 11},  {"R_A2", 12},  {"R_A3", 13},  {"R_A4", 14},  {"R_A5", 15},  {"R_A6", 16},
	{"R_A7", 17},  {"R_S2", 18},  {"R_S3", 19},  {"R_S4", 20},  {"R_S5", 21},  {"R_S6", 22},
	{"R_S7", 23},  {"R_S8", 24},  {"R_S9", 25},  {"R_S10", 26}, {"R_S11", 27}, {"R_T3", 28},
	{"R_T4", 29},  {"R_T5", 30},  {"R_T6", 31},  {"R_PC", 32},
};
const size_t dt_nregnames = sizeof(dt_regnames) / sizeof(dt_regnames[0]);
