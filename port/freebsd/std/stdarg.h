/* port/freebsd/std/stdarg.h: va_list and friends from the kernel. */
#ifndef DTRACE_FBSD_STD_STDARG_H
#define DTRACE_FBSD_STD_STDARG_H
#include <machine/stdarg.h>
#endif
