/*
 * ci/freestanding-include/string.h: the four memory functions every kernel
 * provides and compilers emit calls to anyway (see ARCHITECTURE.md,
 * "Freestanding means").  Debian's xxhash.h (0.8.1) includes <string.h> for
 * memcpy and memcmp.
 *
 * Only xxhash.h may reach this file: the matrix's source check refuses any
 * core file that includes <string.h> itself.
 */
#ifndef DTRACE_CI_FREESTANDING_STRING_H
#define DTRACE_CI_FREESTANDING_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t len);
void *memmove(void *dst, const void *src, size_t len);
void *memset(void *dst, int c, size_t len);
int memcmp(const void *a, const void *b, size_t len);

#endif
