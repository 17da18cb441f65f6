/*
 * kernel/kclock.c: time from a processor counter (kclock.h).
 */
#include "kclock.h"

#define KCLOCK_NS 1000000000ull

bool
kclock_set(kclock_t *kc, uint64_t freq, uint64_t count, uint64_t uptime_ns, uint64_t wall_ns)
{
	if (freq == 0)
		return false;
	kc->kc_mult = (KCLOCK_NS << 32) / freq;
	if (kc->kc_mult == 0)
		return false;
	kc->kc_count0 = count;
	kc->kc_ns0 = uptime_ns;
	kc->kc_wall0 = wall_ns - uptime_ns;
	return true;
}

uint64_t
kclock_calibrate(uint64_t dcount, uint64_t dns)
{
	/* 64-bit only (a kernel has no 128-bit division): dcount below 2^64 /
	 * 10^9, 18 s of a 1 GHz counter */
	if (dcount == 0 || dns == 0 || dcount > UINT64_MAX / KCLOCK_NS)
		return 0;
	return dcount * KCLOCK_NS / dns;
}

uint64_t
kclock_hrtime(const kclock_t *kc, uint64_t count)
{
	uint64_t d = count - kc->kc_count0;

	return kc->kc_ns0 + (uint64_t)(((unsigned __int128)d * kc->kc_mult) >> 32);
}

uint64_t
kclock_walltime(const kclock_t *kc, uint64_t count)
{
	return kc->kc_wall0 + kclock_hrtime(kc, count);
}

uint64_t
kclock_q32_ns(uint64_t q32)
{
	return (q32 >> 32) * 1000000000ull + (((q32 & 0xffffffffull) * 1000000000ull) >> 32);
}
