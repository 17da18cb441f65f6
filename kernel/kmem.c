/*
 * kernel/kmem.c: the core's private and probe-writable allocations
 * (port.h) in a kernel backend.  In a kernel every allocation is private
 * to the kernel and no other address space maps it, so the port's
 * dtrace_port_zalloc/dtrace_port_free serve for both.
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

void *
dtrace_port_zalloc_probe(size_t size)
{
	return dtrace_port_zalloc(size);
}

void
dtrace_port_free_probe(void *ptr, size_t size)
{
	dtrace_port_free(ptr, size);
}
