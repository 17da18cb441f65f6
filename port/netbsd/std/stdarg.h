/* The kernel's va_list (see stdint.h here). */
#ifndef DTNB_SHIM_STDARG_H
#define DTNB_SHIM_STDARG_H
#include <sys/stdarg.h>
#endif
