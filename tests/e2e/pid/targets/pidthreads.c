/* pidthreads T N: T threads each calling work() N times, then exit 0. */
#include <pthread.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) void
work(long i)
{
	__asm__ volatile("");
	__atomic_add_fetch(&sink, i & 1, __ATOMIC_RELAXED);
}

static long calls;

static void *
run(void *arg)
{
	(void)arg;
	for (long i = 0; i < calls; i++)
		work(i);
	return NULL;
}

int
main(int argc, char **argv)
{
	int t = argc > 1 ? atoi(argv[1]) : 16;
	pthread_t th[256];

	calls = argc > 2 ? atol(argv[2]) : 1000;
	if (t < 1 || t > 256)
		return 2;
	for (int i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, run, NULL) != 0)
			return 1;
	for (int i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	return sink == (long)t * (calls / 2) ? 0 : 1;
}
