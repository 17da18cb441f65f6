/* port/illumos/std/stddef.h: size_t and NULL from the kernel; offsetof as
 * the compiler computes it (this kernel's headers have none). */
#ifndef DTRACE_ILLUMOS_STD_STDDEF_H
#define DTRACE_ILLUMOS_STD_STDDEF_H
#include <sys/types.h>
#ifndef offsetof
#define offsetof(type, field) __builtin_offsetof(type, field)
#endif
#endif
