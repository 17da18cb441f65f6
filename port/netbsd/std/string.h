/* memcpy, memmove, memset, memcmp: libkern, which every NetBSD kernel has. */
#ifndef DTNB_SHIM_STRING_H
#define DTNB_SHIM_STRING_H
#include <lib/libkern/libkern.h>
#endif
