/*
 * regs/x86_64.c: uregs[] names on x86_64, as illumos DTrace's regs.d for
 * amd64 gives them: the i386 names 0..18 (mapped onto the 64-bit
 * registers by isa/x86_64/regs.c), the amd64 REG_* order from 19, and the
 * portable R_PC, R_SP, R_PS, R_R0, R_R1.
 */
#include "dt_regs.h"

#define AMD64(n) (18 + 1 + (n)) /* amd64 REG_* n, after the 19 i386 names */

const dt_regname_t dt_regnames[] = {
	{"R_GS", 0},           {"R_FS", 1},           {"R_ES", 2},           {"R_DS", 3},
	{"R_EDI", 4},          {"R_ESI", 5},          {"R_EBP", 6},          {"R_ESP", 7},
	{"R_EBX", 8},          {"R_EDX", 9},          {"R_ECX", 10},         {"R_EAX", 11},
	{"R_TRAPNO", 12},      {"R_ERR", 13},         {"R_EIP", 14},         {"R_CS", 15},
	{"R_EFL", 16},         {"R_UESP", 17},        {"R_SS", 18},
	{"R_PC", 14},          {"R_SP", 17},          {"R_PS", 16},          {"R_R0", 11},
	{"R_R1", 8},
	{"R_R15", AMD64(0)},   {"R_R14", AMD64(1)},   {"R_R13", AMD64(2)},   {"R_R12", AMD64(3)},
	{"R_R11", AMD64(4)},   {"R_R10", AMD64(5)},   {"R_R9", AMD64(6)},    {"R_R8", AMD64(7)},
	{"R_RDI", AMD64(8)},   {"R_RSI", AMD64(9)},   {"R_RBP", AMD64(10)},  {"R_RBX", AMD64(11)},
	{"R_RDX", AMD64(12)},  {"R_RCX", AMD64(13)},  {"R_RAX", AMD64(14)},  {"R_RIP", AMD64(17)},
	{"R_RFL", AMD64(19)},  {"R_RSP", AMD64(20)},
};
const size_t dt_nregnames = sizeof(dt_regnames) / sizeof(dt_regnames[0]);
