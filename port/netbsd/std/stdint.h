/*
 * port/netbsd/std/: the C headers the OS-neutral core and xxhash.h ask
 * for, answered from the NetBSD kernel's own headers (a kernel build has no
 * C library).  Only kernel builds of port/netbsd put this directory on the
 * include path.
 */
#ifndef DTNB_SHIM_STDINT_H
#define DTNB_SHIM_STDINT_H
#include <sys/stdint.h>
#endif
