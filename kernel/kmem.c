/*
 * kernel/kmem.c: the core's private allocations (port.h) in a kernel
 * backend.  In a kernel every allocation is private to the kernel, so the
 * port's dtrace_port_zalloc/dtrace_port_free serve.
 */
#include "dtrace.h"

void *
dtrace_port_zalloc_private(size_t size)
{
	return dtrace_port_zalloc(size);
}

void
dtrace_port_free_private(void *ptr, size_t size)
{
	dtrace_port_free(ptr, size);
}
