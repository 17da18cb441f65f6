/*
 * tests/core/lib/core_globals.h: probe-context globals for tests that drive
 * core pieces without dtrace_init().  The core reads everything probe
 * context needs through dtrace_globals (core/dtrace_impl.h); a test that
 * sets dtrace_cpu_core by hand first points that at a block of its own.
 */
#ifndef TESTS_CORE_LIB_CORE_GLOBALS_H
#define TESTS_CORE_LIB_CORE_GLOBALS_H

#include "dtrace_impl.h"

static inline void
test_core_globals(void)
{
	static dtrace_globals_t g;

	if (dtrace_globals == NULL) {
		g.dg_magic = DTRACE_GLOBALS_MAGIC;
		g.dg_size = (uint32_t)sizeof(g);
		g.dg_dynvar_sink.dtdv_hashval = DTRACE_DYNHASH_SINK;
		dtrace_globals = &g;
	}
}

#endif
