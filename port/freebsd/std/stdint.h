/*
 * port/freebsd/std/stdint.h: the C library names that core/port.h and
 * isa/isa.h include, taken from the FreeBSD kernel's own headers (a kernel
 * module sees no C library).  The four files here are the only std names
 * the port's sources see.
 */
#ifndef DTRACE_FBSD_STD_STDINT_H
#define DTRACE_FBSD_STD_STDINT_H
#include <sys/types.h>
#include <sys/stdint.h>
#endif
