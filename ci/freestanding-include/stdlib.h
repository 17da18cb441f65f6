/*
 * ci/freestanding-include/stdlib.h: the names Debian's xxhash.h (0.8.1)
 * takes from <stdlib.h> when the core includes it with XXH_INLINE_ALL.
 *
 * Only xxhash.h may reach this file: the matrix's source check refuses any
 * core file that includes <stdlib.h> itself, and its symbol check fails if
 * an object ends up calling malloc or free.  xxhash only wraps them in
 * static helpers (XXH_malloc, XXH_free) that the core never calls, so the
 * declarations are enough.
 */
#ifndef DTRACE_CI_FREESTANDING_STDLIB_H
#define DTRACE_CI_FREESTANDING_STDLIB_H

#include <stddef.h>

void *malloc(size_t size);
void free(void *ptr);

#endif
