/*
 * pidhostile: a traced program that turns on its consumer through the
 * arena it maps (port/linux/arena.c: the memfds "dtrace-arena-ro", which
 * agents map read-only, and "dtrace-arena", which they map writable).
 *
 *   pidhostile readonly [FILE]
 *       With FILE (for -p), writes its pid there and waits for the arena
 *       to be mapped.  Finds the read-only part in /proc/self/maps and
 *       tries, in turn, a
 *       store into it (catching SIGSEGV itself), mprotect() to make it
 *       writable, and, through every descriptor of that memfd it holds
 *       (the agent's), write(2), a writable shared mapping and the same
 *       after opening the descriptor again read-write.  Prints one line per
 *       attempt saying whether it was refused, then calls done(0) (which
 *       the test probes) every 10 ms until SIGTERM (then exits 0).
 *   pidhostile scribble [FILE]
 *       Waits for the arena to be mapped (-p: until the agent arrives),
 *       writes its pid to FILE if given, then until SIGTERM writes random
 *       words over every resident page of the writable part but its first
 *       16 KiB (the CPU slots: a busy word a target sets makes probes wait
 *       or be refused, which is no crash and not what is tested here):
 *       buffer headers, offsets, records, aggregation indexes, dynamic
 *       variable chains and free lists, counters, request words.  Calls
 *       done(rounds) after each round.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t stop;

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

__attribute__((noinline)) void
done(long n)
{
	__asm__ volatile("" : : "r"(n));
}

static void
on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

/* The first mapping of the memfd called `name`: [*lo, *hi). */
static int
find_mapping(const char *name, uintptr_t *lo, uintptr_t *hi)
{
	char line[512], want[64];
	FILE *f = fopen("/proc/self/maps", "re");
	int found = 0;

	if (f == NULL)
		return 0;
	snprintf(want, sizeof(want), "/memfd:%s ", name);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned long a, b;

		if (strstr(line, want) != NULL && sscanf(line, "%lx-%lx", &a, &b) == 2) {
			*lo = a;
			*hi = b;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static const char *
refused(int ok)
{
	return ok ? "refused" : "ALLOWED";
}

/* Every descriptor of the read-only part this process holds (the agent's). */
static void
descriptor_checks(void)
{
	char path[300], link[128];
	struct dirent *d;
	DIR *dir;
	int nfd = 0;

	if ((dir = opendir("/proc/self/fd")) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		ssize_t n;
		int fd = atoi(d->d_name), rw;
		void *m;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		if ((n = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[n] = '\0';
		if (strncmp(link, "/memfd:dtrace-arena-ro", 22) != 0)
			continue;
		nfd++;
		m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		printf("descriptor: write %s, writable mapping %s\n",
		       refused(pwrite(fd, "x", 1, 64) < 0), refused(m == MAP_FAILED));
		if ((rw = open(path, O_RDWR)) >= 0) {
			m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0);
			printf("opened again read-write: write %s, writable mapping %s, "
			       "truncate %s\n",
			       refused(pwrite(rw, "x", 1, 64) < 0), refused(m == MAP_FAILED),
			       refused(ftruncate(rw, 0) != 0));
			close(rw);
		} else {
			printf("opened again read-write: write refused, writable mapping "
			       "refused, truncate refused\n");
		}
	}
	closedir(dir);
	if (nfd == 0)
		printf("no descriptor of the read-only part\n");
}

static int
readonly(const char *file)
{
	struct sigaction sa, old;
	uintptr_t lo, hi;
	volatile int faulted = 0;
	struct timespec nap = {0, 10000000};
	FILE *f;

	if (file != NULL) {
		if ((f = fopen(file, "w")) == NULL)
			return 1;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		while (!find_mapping("dtrace-arena-ro", &lo, &hi))
			nanosleep(&nap, NULL);
		/* the agent has mapped it; let it finish attaching */
		nanosleep(&nap, NULL);
	}
	if (!find_mapping("dtrace-arena-ro", &lo, &hi)) {
		printf("no read-only part mapped\n");
		return 1;
	}
	/* our own handler for the store, then the agent's back */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(fault_jmp, 1) == 0)
		*(volatile uint64_t *)(lo + 64) ^= 0x5a5a5a5a5a5a5a5aULL;
	else
		faulted = 1;
	sigaction(SIGSEGV, &old, NULL);
	printf("store into the read-only part: %s\n", faulted ? "SIGSEGV" : "WRITTEN");
	if (mprotect((void *)lo, 4096, PROT_READ | PROT_WRITE) == 0)
		printf("mprotect writable: ALLOWED\n");
	else
		printf("mprotect writable: refused (%s)\n", errno == EACCES ? "EACCES" : strerror(errno));

	descriptor_checks();
	fflush(stdout);
	while (!stop) {
		done(0);
		nanosleep(&nap, NULL);
	}
	return 0;
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
scribble(const char *file)
{
	struct timespec nap = {0, 2000000};
	uintptr_t lo, hi;
	uint64_t seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL | 1;
	long pg = sysconf(_SC_PAGESIZE), rounds = 0;
	unsigned char *vec;
	size_t npages, first;
	FILE *f;

	if (file != NULL && (f = fopen(file, "w")) != NULL) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	while (!find_mapping("dtrace-arena", &lo, &hi))
		nanosleep(&nap, NULL);
	npages = (hi - lo) / (size_t)pg;
	first = (16384 + (size_t)pg - 1) / (size_t)pg; /* 256 slots of 64 bytes */
	if ((vec = malloc(npages)) == NULL)
		return 1;
	while (!stop) {
		/* only pages the consumer touched: never make the memfd grow */
		if (mincore((void *)lo, hi - lo, vec) == 0) {
			for (size_t p = first; p < npages; p++) {
				volatile uint64_t *w = (volatile uint64_t *)(lo + p * (size_t)pg);

				if (!(vec[p] & 1))
					continue;
				for (int k = 0; k < 8; k++) {
					uint64_t v = rnd(&seed), r = rnd(&seed);

					/* small numbers, arena-like pointers and noise */
					if ((r & 3) == 0)
						v &= 0xffff;
					else if ((r & 3) == 1)
						v = lo + (v % (hi - lo));
					w[(r >> 8) % ((size_t)pg / 8)] = v;
				}
			}
		}
		done(++rounds);
		nanosleep(&nap, NULL);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_term);
	if (argc >= 2 && strcmp(argv[1], "readonly") == 0)
		return readonly(argc >= 3 ? argv[2] : NULL);
	if (argc >= 2 && strcmp(argv[1], "scribble") == 0)
		return scribble(argc >= 3 ? argv[2] : NULL);
	fprintf(stderr, "usage: pidhostile readonly [FILE] | scribble [FILE]\n");
	return 2;
}
