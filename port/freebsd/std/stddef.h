/* port/freebsd/std/stddef.h: size_t, NULL and offsetof from the kernel. */
#ifndef DTRACE_FBSD_STD_STDDEF_H
#define DTRACE_FBSD_STD_STDDEF_H
#include <sys/types.h>
#include <sys/_null.h>
#ifndef offsetof
#define offsetof(type, field) __offsetof(type, field)
#endif
#endif
