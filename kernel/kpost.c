/*
 * kernel/kpost.c: signals posted from probe context (kpost.h).
 */
#include "kpost.h"

void
kpost_put(kpost_t *kp, uint32_t pid, int sig)
{
	__atomic_store_n(&kp->kp_word, (uint64_t)pid << 32 | (uint32_t)sig, __ATOMIC_RELEASE);
}

uint64_t
kpost_take(kpost_t *kp)
{
	if (__atomic_load_n(&kp->kp_word, __ATOMIC_RELAXED) == 0)
		return 0;
	return __atomic_exchange_n(&kp->kp_word, 0, __ATOMIC_ACQUIRE);
}
