/*
 * kernel/tramp.c: trampolines carved from the OS's chunks (tramp.h).
 */
#include "tramp.h"

int
ktramp_alloc(ktramp_t *kt, void *as, size_t len, uintptr_t *addr)
{
	uintptr_t chunk;

	len = (len + 15) & ~(size_t)15;
	if (as != NULL || len == 0)
		return DTRACE_EINVAL;
	if (kt->kt_base == 0 || kt->kt_used + len > kt->kt_size) {
		if (len > kt->kt_chunk_size)
			return DTRACE_EINVAL;
		if ((chunk = kt->kt_chunk()) == 0)
			return DTRACE_ENOMEM;
		kt->kt_base = chunk;
		kt->kt_size = kt->kt_chunk_size;
		kt->kt_used = 0;
	}
	*addr = kt->kt_base + kt->kt_used;
	kt->kt_used += len;
	return 0;
}
