/*
 * pidloop FILE: for -p tests.  Writes the address of tick() and its own
 * pid to FILE, then calls tick() every millisecond until SIGTERM; on
 * SIGTERM it exits 0 if tick() ran every time it was called (the count
 * adds up), else 1.
 */
#include <signal.h>
#include <stdio.h>
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
		nanosleep(&ms, NULL);
	}
	return ticks == calls ? 0 : 1;
}
