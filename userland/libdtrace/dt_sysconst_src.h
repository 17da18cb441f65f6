/*
 * dt_sysconst_src.h: the headers whose SIG* and E* macros become D
 * constants (dt_sysconst.h).  compiler.cmake preprocesses this file to
 * list the names; dt_sysconst.c includes it to take their values.
 */
#include <errno.h>
#include <signal.h>
