/*
 * regs/aarch64.c: uregs[] names on AArch64, the set FreeBSD's DTrace
 * declares for arm64 (cddl/lib/libdtrace/regs_aarch64.d): R_X0..R_X29, R_FP
 * (x29), R_LR (x30), R_SP and R_PC.  FreeBSD names neither x30 as R_X30 nor
 * pstate, nor the portable R_PS, R_R0, R_R1, so neither does D here.  The
 * values are the numbering of isa/aarch64/regs.c (x0..x30 are 0..30, sp 31,
 * pc 32), which is FreeBSD's.
 */
#include "dt_regs.h"

const dt_regname_t dt_regnames[] = {
	{"R_X0", 0},   {"R_X1", 1},   {"R_X2", 2},   {"R_X3", 3},   {"R_X4", 4},   {"R_X5", 5},
	{"R_X6", 6},   {"R_X7", 7},   {"R_X8", 8},   {"R_X9", 9},   {"R_X10", 10}, {"R_X11", 11},
	{"R_X12", 12}, {"R_X13", 13}, {"R_X14", 14}, {"R_X15", 15}, {"R_X16", 16}, {"R_X17", 17},
	{"R_X18", 18}, {"R_X19", 19}, {"R_X20", 20}, {"R_X21", 21}, {"R_X22", 22}, {"R_X23", 23},
	{"R_X24", 24}, {"R_X25", 25}, {"R_X26", 26}, {"R_X27", 27}, {"R_X28", 28}, {"R_X29", 29},
	{"R_FP", 29},  {"R_LR", 30},  {"R_SP", 31},  {"R_PC", 32},
};
const size_t dt_nregnames = sizeof(dt_regnames) / sizeof(dt_regnames[0]);
