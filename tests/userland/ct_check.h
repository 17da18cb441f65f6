/*
 * ct_check.h: the counting CHECK of the compiler's tests (compile_*.c,
 * ctf/modtypes_test.c).  A failed check prints where and why and counts;
 * the test ends with ct_report(), which exits non-zero if any failed.
 */
#ifndef CT_CHECK_H
#define CT_CHECK_H

#include <stdio.h>

static int failures, passes;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			passes++;                                                                  \
		} else {                                                                           \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
		}                                                                                  \
	} while (0)

#endif /* CT_CHECK_H */
