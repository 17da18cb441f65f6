/* port/illumos/std/stdarg.h: va_list and friends from the kernel. */
#ifndef DTRACE_ILLUMOS_STD_STDARG_H
#define DTRACE_ILLUMOS_STD_STDARG_H
#include <sys/varargs.h>
#endif
