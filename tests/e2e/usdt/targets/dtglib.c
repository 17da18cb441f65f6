/* libdtgl.so: DTrace USDT in a library loaded and unloaded while traced
 * (usdtdlopen calls dlfunc): 1 when the probe is enabled. */
#include "dtg_libprovider.h"

int
dlfunc(int x)
{
	USDTGL_CALL(x);
	return USDTGL_CALL_ENABLED() ? 1 : 0;
}
