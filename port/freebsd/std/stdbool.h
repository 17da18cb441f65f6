/* port/freebsd/std/stdbool.h: the kernel's <sys/types.h> defines bool,
 * true and false under _KERNEL. */
#ifndef DTRACE_FBSD_STD_STDBOOL_H
#define DTRACE_FBSD_STD_STDBOOL_H
#include <sys/types.h>
#endif
