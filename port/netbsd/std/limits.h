/* INT_MAX, ULLONG_MAX, ... from the kernel's machine header. */
#ifndef DTNB_SHIM_LIMITS_H
#define DTNB_SHIM_LIMITS_H
#include <machine/limits.h>
#endif
