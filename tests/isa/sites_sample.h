/* tests/isa/sites_sample.h: the sample functions of sites_sample.c, one set
 * per compiled variant, and the helpers they call out to. */
#ifndef DTRACE_TESTS_ISA_SITES_SAMPLE_H
#define DTRACE_TESTS_ISA_SITES_SAMPLE_H

int sites_helper_a(int);
int sites_helper_b(int);

#define SITES_DECLARE(sfx)                                                                         \
	int leaf_add##sfx(int, int);                                                               \
	long sum_loop##sfx(const long *, int);                                                     \
	int tail_call##sfx(int);                                                                   \
	int cond_tail##sfx(int, int);                                                              \
	int dispatch##sfx(int, int, int);                                                          \
	int early_returns##sfx(const char *);                                                      \
	long big_frame##sfx(int);                                                                  \
	int recurse##sfx(int);                                                                     \
	int indirect_tail##sfx(int (*)(int), int);                                                 \
	int dispatch_dense##sfx(unsigned, int);

SITES_DECLARE(_O0)
SITES_DECLARE(_O2)
SITES_DECLARE(_O2fp)
SITES_DECLARE(_O2cet)

#endif
