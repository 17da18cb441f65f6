/*
 * port/illumos/std/stdint.h: the C library names core/port.h and isa/isa.h
 * include, from the illumos kernel's own headers (a driver sees no C
 * library).  These four files are the only std names the port sees.
 */
#ifndef DTRACE_ILLUMOS_STD_STDINT_H
#define DTRACE_ILLUMOS_STD_STDINT_H
#include <sys/types.h>
#include <sys/int_limits.h>
#endif
