/* A probe with a semaphore, as programs guard costly probe arguments:
 * <sys/sdt.h> names the semaphore usdtprog_guarded_semaphore in the note,
 * and the tracer increments it while the probe is enabled. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "usdtsem.h"

__extension__ unsigned short usdtprog_guarded_semaphore __attribute__((unused))
__attribute__((section(".probes")));

__attribute__((noinline)) void
usdtsem_fire(long n)
{
	STAP_PROBE1(usdtprog, guarded, n);
}

int
usdtsem_guarded(long n)
{
	if (__builtin_expect(usdtprog_guarded_semaphore != 0, 0)) {
		usdtsem_fire(n);
		return 1;
	}
	return 0;
}

unsigned
usdtsem_value(void)
{
	return *(volatile unsigned short *)&usdtprog_guarded_semaphore;
}

void *
usdtsem_address(void)
{
	return &usdtprog_guarded_semaphore;
}
