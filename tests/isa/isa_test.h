/*
 * tests/isa/isa_test.h: the few helpers the ISA tests share.
 *
 * A failed check prints where and what, counts, and the test carries on, so
 * one run shows every broken row of a table; main() returns isa_test_exit().
 */
#ifndef DTRACE_TESTS_ISA_TEST_H
#define DTRACE_TESTS_ISA_TEST_H

#include <inttypes.h>
#include <stdio.h>

static int isa_test_failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			isa_test_failures++;                                                       \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

static inline int
isa_test_exit(const char *name)
{
	if (isa_test_failures != 0) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, isa_test_failures);
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

#endif
