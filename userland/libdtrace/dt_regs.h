/*
 * dt_regs.h: the names D programs give uregs[] indices (R_PC, R_SP, ...),
 * as DTrace's per-platform regs.d declares them.  The numbering is the
 * target ISA's (isa/<isa>/regs.c), so CMake compiles the one table of
 * userland/libdtrace/regs/<isa>.c; the compiler makes each name an int
 * constant.
 */
#ifndef DT_REGS_H
#define DT_REGS_H

#include <stddef.h>

typedef struct dt_regname {
	const char *name;
	int value;
} dt_regname_t;

extern const dt_regname_t dt_regnames[];
extern const size_t dt_nregnames;

#endif /* DT_REGS_H */
