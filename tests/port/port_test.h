/*
 * tests/port/port_test.h: the few helpers the port tests share.
 * A failed CHECK prints where and why and makes the test exit non-zero.
 */
#ifndef DTRACE_TESTS_PORT_TEST_H
#define DTRACE_TESTS_PORT_TEST_H

#include <stdio.h>
#include <stdlib.h>

static int port_test_failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			port_test_failures++;                                                      \
		}                                                                                  \
	} while (0)

#define TEST_DONE()                                                                                \
	do {                                                                                       \
		if (port_test_failures != 0) {                                                     \
			fprintf(stderr, "%d check(s) failed\n", port_test_failures);               \
			return 1;                                                                  \
		}                                                                                  \
		return 0;                                                                          \
	} while (0)

#endif
