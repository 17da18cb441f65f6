/*
 * tests/core/lib/test_util.h: assertions for core unit tests.
 *
 * A failed check prints the file, line, expression and values, counts the
 * failure and continues, so one run reports every broken behaviour;
 * TEST_DONE() makes the exit status non-zero if anything failed.
 */
#ifndef DTRACE_TEST_UTIL_H
#define DTRACE_TEST_UTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define CHECK(cond)                                                                        \
	do {                                                                               \
		test_checks++;                                                             \
		if (!(cond)) {                                                             \
			test_failures++;                                                   \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                                     \
	do {                                                                               \
		uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                         \
		test_checks++;                                                             \
		if (va_ != vb_) {                                                          \
			test_failures++;                                                   \
			fprintf(stderr,                                                    \
				"%s:%d: CHECK_EQ failed: %s == %s (0x%" PRIx64 " vs 0x%" PRIx64 \
				", %" PRId64 " vs %" PRId64 ")\n",                         \
				__FILE__, __LINE__, #a, #b, va_, vb_, (int64_t)va_, (int64_t)vb_); \
		}                                                                          \
	} while (0)

#define CHECK_STREQ(a, b)                                                                  \
	do {                                                                               \
		const char *sa_ = (const char *)(a), *sb_ = (const char *)(b);             \
		test_checks++;                                                             \
		if (sa_ == NULL || sb_ == NULL || strcmp(sa_, sb_) != 0) {                 \
			test_failures++;                                                   \
			fprintf(stderr, "%s:%d: CHECK_STREQ failed: %s == %s (\"%s\" vs \"%s\")\n", \
				__FILE__, __LINE__, #a, #b, sa_ ? sa_ : "(null)",          \
				sb_ ? sb_ : "(null)");                                     \
		}                                                                          \
	} while (0)

/* Print a summary; the value to return from main(). */
#define TEST_DONE()                                                                        \
	(printf("%d checks, %d failures\n", test_checks, test_failures),                   \
	 test_failures == 0 ? 0 : 1)

#endif /* DTRACE_TEST_UTIL_H */
