/* size_t, ptrdiff_t, NULL and offsetof as the kernel defines them. */
#ifndef DTNB_SHIM_STDDEF_H
#define DTNB_SHIM_STDDEF_H
#include <sys/types.h>
#include <lib/libkern/libkern.h>
#endif
