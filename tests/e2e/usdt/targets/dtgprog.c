/*
 * dtgprog N: DTrace's own USDT, as the -h header's macros write it (see
 * dtg_provider.d): N rounds of probes with arguments in registers and on
 * the stack, reordered and translated ones, one in a static function, and
 * an is-enabled test guarding work that only runs while traced.
 */
#include <stdio.h>
#include <stdlib.h>

struct gstate {
	int count;
	char *name;
};

#include "dtg_provider.h"

static int __attribute__((noinline)) helper(int x)
{
	USDTG_LOCAL_FN(x);
	return x + 1;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, ran = 0;
	long total = 0;
	struct gstate g = {0, "state"};

	for (int i = 0; i < n; i++) {
		USDTG_START(i, "start");
		total += helper(i);
		if (USDTG_MANY_ENABLED()) {
			ran++;
			USDTG_MANY(1, 2, 3, 4, 5, 6, 7, -8);
		}
		g.count = i;
		USDTG_STATE(&g);
		USDTG_DONE(i, total);
	}
	printf("is-enabled work ran %d times\n", ran);
	return 0;
}
