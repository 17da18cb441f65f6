/*
 * pidtarget: functions for the pid provider's tests, driven by argv.
 *   pidtarget calls N        add(i, 1) N times
 *   pidtarget twoexits N     twoexits(i) for i < N (two return sites)
 *   pidtarget eight          eight(1, ..., 8): arguments on the stack
 *   pidtarget malloc N       malloc(12345) N times
 *   pidtarget nest N         outer -> middle -> inner N times
 *   pidtarget spin MS        spin() for MS milliseconds of CPU
 *   pidtarget exec N PROG    add() N times, then exec PROG (no arguments)
 *   pidtarget greet NAME     greet(NAME), called from main
 * It prints nothing unless asked (-v), so its output never mixes with
 * dtrace's.  Built with and without frame pointers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

volatile long sink;

NOINLINE int
add(int a, int b)
{
	__asm__ volatile("");
	return a + b;
}

NOINLINE int
twoexits(int x)
{
	if (x & 1) {
		sink += x;
		return -x;
	}
	sink -= x;
	return x * 10;
}

NOINLINE size_t
greet(const char *name)
{
	size_t n = strlen(name);

	sink += (long)n; /* not a tail call: the return value is in place */
	return n;
}

NOINLINE long
eight(long a, long b, long c, long d, long e, long f, long g, long h)
{
	return a + b + c + d + e + f + g + h;
}

NOINLINE int
inner(int x)
{
	volatile char pad[100];

	pad[x % 100] = (char)x;
	return pad[x % 100] + 1;
}

NOINLINE int
middle(int x)
{
	int r = inner(x + 1);

	sink += r;
	return r + 1;
}

NOINLINE int
outer(int x)
{
	int r = middle(x * 2);

	sink += r;
	return r * 2;
}

NOINLINE void
spin(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1, total = 0;

	if (argc > 2 && strcmp(argv[1], "greet") == 0)
		n = 0;
	int verbose = argc > 3 && strcmp(argv[argc - 1], "-v") == 0;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "calls") == 0) {
		for (long i = 0; i < n; i++)
			total += add((int)i, 1);
	} else if (strcmp(argv[1], "twoexits") == 0) {
		for (long i = 0; i < n; i++)
			total += twoexits((int)i);
	} else if (strcmp(argv[1], "eight") == 0) {
		total = eight(1, 2, 3, 4, 5, 6, 7, 8);
	} else if (strcmp(argv[1], "malloc") == 0) {
		for (long i = 0; i < n; i++) {
			void *p = malloc(12345);

			total += p != NULL;
			free(p);
		}
	} else if (strcmp(argv[1], "nest") == 0) {
		for (long i = 0; i < n; i++)
			total += outer((int)i);
	} else if (strcmp(argv[1], "spin") == 0) {
		spin(n);
	} else if (strcmp(argv[1], "greet") == 0 && argc > 2) {
		total = (long)greet(argv[2]);
	} else if (strcmp(argv[1], "exec") == 0 && argc > 3) {
		for (long i = 0; i < n; i++)
			total += add((int)i, 1);
		execl(argv[3], argv[3], (char *)NULL);
		return 3;
	} else {
		return 2;
	}
	if (verbose)
		printf("%ld\n", total);
	return 0;
}
