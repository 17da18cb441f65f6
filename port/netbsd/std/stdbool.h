/* The kernel's bool (see stdint.h here). */
#ifndef DTNB_SHIM_STDBOOL_H
#define DTNB_SHIM_STDBOOL_H
#include <sys/stdbool.h>
#endif
