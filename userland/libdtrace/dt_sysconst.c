/*
 * dt_sysconst.c: the values of the signal and errno names compiler.cmake
 * found in the target's headers (see dt_sysconst.h).  An alias such as
 * EWOULDBLOCK or SIGIOT takes the value of the name it stands for, as the
 * inlines of DTrace's generated errno.d and signal.d do.
 */
#include "dt_sysconst.h"
#include "dt_sysconst_src.h"

#define DT_SYSCONST(name) {#name, name},

const dt_regname_t dt_sysconsts[] = {
#include "dt_sysconst_list.h"
    {0, 0},
};
