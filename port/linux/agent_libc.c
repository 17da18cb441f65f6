/*
 * port/linux/agent_libc.c: the agent's own memcpy, memmove, memset and
 * memcmp, the four C library functions the core calls in probe context.
 *
 * Hidden in the agent (libdtrace-agent.so), so the core's calls bind to
 * them when the library is linked: a pid probe on the program's (or
 * libc's) memcpy can then never trap inside probe context, and a program
 * that interposes its own memcpy does not run inside ours.  Built without
 * the compiler's builtins, so these loops are not turned back into calls
 * of the functions they define.  Probe context: yes.
 */
#include <stddef.h>
#include <stdint.h>

#define AGENT_HIDDEN __attribute__((visibility("hidden")))

AGENT_HIDDEN void *memcpy(void *dst, const void *src, size_t n);
AGENT_HIDDEN void *memmove(void *dst, const void *src, size_t n);
AGENT_HIDDEN void *memset(void *dst, int c, size_t n);
AGENT_HIDDEN int memcmp(const void *a, const void *b, size_t n);

AGENT_HIDDEN void *
memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n >= sizeof(uint64_t)) {
		uint64_t w;

		__builtin_memcpy(&w, s, sizeof(w));
		__builtin_memcpy(d, &w, sizeof(w));
		d += sizeof(w);
		s += sizeof(w);
		n -= sizeof(w);
	}
	while (n-- > 0)
		*d++ = *s++;
	return dst;
}

AGENT_HIDDEN void *
memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s || d >= s + n)
		return memcpy(dst, src, n);
	while (n-- > 0)
		d[n] = s[n];
	return dst;
}

AGENT_HIDDEN void *
memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n-- > 0)
		*d++ = (unsigned char)c;
	return dst;
}

AGENT_HIDDEN int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n > 0; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}
