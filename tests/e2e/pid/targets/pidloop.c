/*
 * pidloop FILE [alloc]: for -p tests.  Writes the address of tick() and
 * its own pid to FILE, then calls tick() every millisecond until SIGTERM;
 * on SIGTERM it exits 0 if tick() ran every time it was called (the count
 * adds up), else 1.  With `alloc` it spends the time between calls in
 * malloc and free instead of asleep (and exits 1 if what it wrote into a
 * block is not there).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static volatile long ticks, calls;

__attribute__((noinline)) void
tick(long n)
{
	__asm__ volatile("");
	ticks += n;
}

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	struct timespec ms = {0, 1000000};
	FILE *f;

	if (argc < 2 || (f = fopen(argv[1], "w")) == NULL)
		return 2;
	signal(SIGTERM, on_term);
	fprintf(f, "%d %p\n", (int)getpid(), (void *)tick);
	fclose(f);
	while (!stop) {
		tick(1);
		calls++;
		if (argc < 3 || strcmp(argv[2], "alloc") != 0) {
			nanosleep(&ms, NULL);
			continue;
		}
		for (int i = 0; i < 2000; i++) {
			size_t n = 16 + (size_t)(i % 61) * 24;
			char *p = malloc(n);

			if (p == NULL)
				return 1;
			memset(p, i & 0xff, n);
			if (p[n - 1] != (char)(i & 0xff))
				return 1;
			free(p);
		}
	}
	return ticks == calls ? 0 : 1;
}
