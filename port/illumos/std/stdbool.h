/* port/illumos/std/stdbool.h: this kernel predates C99's bool in its
 * headers (it has boolean_t), so the language's own names are given here. */
#ifndef DTRACE_ILLUMOS_STD_STDBOOL_H
#define DTRACE_ILLUMOS_STD_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#endif
