/*
 * kernel/kclock.c, time from a processor counter: hrtime continues the
 * uptime given at load at the counter's rate (exact for a 1 GHz counter,
 * within a nanosecond per second for others), the wall clock keeps its
 * offset, a counter that wraps still counts forward, calibration,
 * frequencies refused, 32.32 fixed-point seconds in ns.
 */
#include "kclock.h"
#include "test_util.h"

int
main(void)
{
	kclock_t kc;
	uint64_t t;

	CHECK(kclock_set(&kc, 1000000000ull, 500, 7000, 1700000000000000000ull));
	CHECK_EQ(kclock_hrtime(&kc, 500), 7000);
	CHECK_EQ(kclock_hrtime(&kc, 1500), 8000);
	CHECK_EQ(kclock_walltime(&kc, 1500), 1700000000000001000ull);

	/* 24 MHz (arm64's usual CNTFRQ): 24,000,000 counts are a second */
	CHECK(kclock_set(&kc, 24000000, 0, 0, 0));
	t = kclock_hrtime(&kc, 24000000ull * 3600);
	CHECK(t >= 3600 * 1000000000ull - 3600 && t <= 3600 * 1000000000ull);

	/* a counter that wraps past 2^64 */
	CHECK(kclock_set(&kc, 1000000000ull, UINT64_MAX - 9, 100, 100));
	CHECK_EQ(kclock_hrtime(&kc, 10), 120);

	CHECK_EQ(kclock_calibrate(200000, 20000000), 10000000); /* 10 MHz */
	CHECK_EQ(kclock_calibrate(0, 20000000), 0);
	CHECK_EQ(kclock_calibrate(100, 0), 0);
	CHECK_EQ(kclock_q32_ns(3ull << 32 | 1ull << 31), 3500000000ull); /* 3.5 s */
	CHECK_EQ(kclock_q32_ns(1), 0);
	CHECK_EQ(kclock_q32_ns(5), 1); /* 5 / 2^32 s is 1.16 ns */
	CHECK(!kclock_set(&kc, 0, 0, 0, 0));
	CHECK(!kclock_set(&kc, UINT64_MAX, 0, 0, 0));
	return TEST_DONE();
}
