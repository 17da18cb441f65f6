/* libusdtdl.so: SystemTap probes in a library loaded and unloaded while
 * traced; `guarded` runs only while its semaphore says it is enabled. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

__extension__ unsigned short usdtdl_call_semaphore __attribute__((unused))
__attribute__((section(".probes")));
__extension__ unsigned short usdtdl_guarded_semaphore __attribute__((unused))
__attribute__((section(".probes")));

/* Returns 1 if the guarded probe's work ran. */
__attribute__((noinline)) int
dlfunc(int x)
{
	STAP_PROBE1(usdtdl, call, x);
	if (usdtdl_guarded_semaphore) {
		STAP_PROBE1(usdtdl, guarded, x * 10);
		return 1;
	}
	return 0;
}
