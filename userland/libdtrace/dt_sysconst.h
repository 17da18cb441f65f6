/*
 * dt_sysconst.h: the signal and errno numbers D programs name (SIGINT,
 * EPERM, ...).  DTrace's D libraries signal.d and errno.d declare them as
 * int inlines, generated from the system's <signal.h> and <errno.h>
 * (illumos mksignal.sh and mkerrno.sh); here compiler.cmake lists the
 * names those headers define when configuring (dt_sysconst_list.h) and
 * dt_sysconst.c takes each value from the headers themselves, so the
 * numbers are always the target's.  The compiler makes each an int
 * constant, as it does the uregs[] names (dt_regs.h).
 */
#ifndef DT_SYSCONST_H
#define DT_SYSCONST_H

#include "dt_regs.h"

/* name and value, as dt_regnames[]; the table ends with a NULL name */
extern const dt_regname_t dt_sysconsts[];

#endif /* DT_SYSCONST_H */
