/*
 * tests/port/arena.c: the shared arena's allocator.
 *
 * Memory is zeroed, aligned and inside the arena; freed memory is reused
 * and zeroed again (small classes and page-sized extents, which coalesce);
 * the arena is shared with a forked child: the child's allocations and
 * writes are the parent's, and the allocator state stays consistent; a
 * process can map the same arena from its memfds at the same address, and
 * one that maps it as an agent does can write the writable part but can
 * neither write the read-only part nor make it writable by any means
 * (mprotect, a writable mapping or write(2) through a descriptor opened
 * again read-write), nor shrink either memfd.  The windows where the
 * arena is placed hold none of the mappings the kernel gives a process of
 * its own accord (this one, a position-independent program just started,
 * and one started with the legacy layout), so that an agent finds the
 * consumer's addresses free.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static bool
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static sigjmp_buf fault_jmp;

static void
on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

/*
 * In a process that attached like an agent: a store into the read-only
 * part faults, mprotect cannot make it writable, the memfd cannot be
 * written, mapped writable (even opened again read-write) or shrunk, and
 * the writable part cannot be shrunk either.  0, or which check failed.
 */
static int
readonly_checks(int rofd, uint64_t *ro)
{
	uintptr_t page = (uintptr_t)linux_arena;
	char path[64];
	struct sigaction sa;
	volatile int faulted = 0;
	int rw;
	void *m;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	if (sigsetjmp(fault_jmp, 1) == 0)
		*(volatile uint64_t *)ro = 1;
	else
		faulted = 1;
	if (!faulted)
		return 10;
	if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE) == 0 || errno != EACCES)
		return 11;
	if (write(rofd, "x", 1) >= 0)
		return 12;
	if (mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rofd, 0) != MAP_FAILED)
		return 13;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", rofd);
	if ((rw = open(path, O_RDWR)) >= 0) {
		m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0);
		if (m != MAP_FAILED || pwrite(rw, "x", 1, 0) >= 0 || ftruncate(rw, 4096) == 0)
			return 14;
		m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, rw, 0);
		if (m == MAP_FAILED || mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0)
			return 15;
		close(rw);
	}
	if (ftruncate(linux_arena_fd(), 4096) == 0)
		return 16;
	return 0;
}

/*
 * 0 if no mapping that `cmd`'s output lists (a /proc/PID/maps) meets a
 * window that exists in this address space; else the number of mappings
 * that do, each printed.
 */
static int
windows_clear_of(const char *what, const char *cmd)
{
	unsigned long lo, hi;
	uintptr_t base, span;
	char line[512];
	int bad = 0, lines = 0, w;
	FILE *f = popen(cmd, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		lines++;
		for (w = 0; linux_map_window(w, &base, &span); w++) {
			if (lo < base + span && hi > base) {
				fprintf(stderr, "%s: window %d [%#lx, %#lx) meets %s", what, w,
					(unsigned long)base, (unsigned long)(base + span), line);
				bad++;
			}
		}
	}
	if (pclose(f) != 0 || lines < 3)
		return -1;
	return bad;
}

int
main(void)
{
	static const size_t sizes[] = {1, 8, 16, 24, 100, 4096, 5000, 32768, 40000, 1 << 20};
	void *p[10], *q, *big1, *big2, *big3, *merged;
	uint64_t *shared, *seen;
	size_t i;
	pid_t pid;
	int st;

	CHECK(windows_clear_of("this test", "cat /proc/$PPID/maps") == 0,
	      "the arena's windows hold none of this process's mappings");
	CHECK(windows_clear_of("a new program", "cat /proc/self/maps") == 0,
	      "the arena's windows hold none of a new program's mappings");
	if (system("ulimit -s unlimited 2>/dev/null") == 0)
		CHECK(windows_clear_of("the legacy layout",
				       "ulimit -s unlimited && cat /proc/self/maps") == 0,
		      "the arena's windows hold none of a legacy-layout program's mappings");
	CHECK(linux_arena_create((size_t)256 << 20) == 0, "arena");
	for (i = 0; i < 10; i++) {
		p[i] = dtrace_port_zalloc(sizes[i]);
		CHECK(p[i] != NULL && linux_arena_contains((uintptr_t)p[i], sizes[i]),
		      "alloc %zu in arena", sizes[i]);
		CHECK(((uintptr_t)p[i] & 7) == 0, "alloc %zu aligned", sizes[i]);
		CHECK(all_zero(p[i], sizes[i]), "alloc %zu zeroed", sizes[i]);
		memset(p[i], 0xa5, sizes[i]);
	}
	for (i = 0; i < 10; i++)
		dtrace_port_free(p[i], sizes[i]);
	for (i = 0; i < 10; i++) {
		q = dtrace_port_zalloc(sizes[i]);
		CHECK(q != NULL && all_zero(q, sizes[i]), "realloc %zu zeroed", sizes[i]);
		p[i] = q;
	}
	/* 100 reuses the 100-byte block freed above (same class). */
	CHECK(linux_arena->la_inuse > 0, "in use counted");

	/* Extents coalesce: three neighbours freed make one that fits all. */
	big1 = dtrace_port_zalloc(64 << 10);
	big2 = dtrace_port_zalloc(64 << 10);
	big3 = dtrace_port_zalloc(64 << 10);
	CHECK((char *)big2 == (char *)big1 + (64 << 10) && (char *)big3 == (char *)big2 + (64 << 10),
	      "consecutive extents");
	memset(big1, 1, 64 << 10);
	memset(big2, 2, 64 << 10);
	memset(big3, 3, 64 << 10);
	dtrace_port_free(big1, 64 << 10);
	dtrace_port_free(big3, 64 << 10);
	dtrace_port_free(big2, 64 << 10);
	merged = dtrace_port_zalloc(192 << 10);
	CHECK(merged == big1, "coalesced extent reused (%p, %p)", merged, big1);
	CHECK(merged != NULL && all_zero(merged, 192 << 10), "coalesced extent zeroed");

	/* Shared with a child across fork. */
	shared = dtrace_port_zalloc(4 * sizeof(uint64_t));
	pid = fork();
	if (pid == 0) {
		uint64_t *c = dtrace_port_zalloc(64);
		if (c == NULL)
			_exit(1);
		c[0] = 0x1234;
		shared[0] = (uint64_t)(uintptr_t)c;
		shared[1] = (uint64_t)getpid();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	CHECK(shared[1] == (uint64_t)pid, "child's write seen by the parent");
	CHECK(shared[0] != 0 && *(uint64_t *)(uintptr_t)shared[0] == 0x1234,
	      "child's allocation readable by the parent");
	q = dtrace_port_zalloc(64);
	CHECK(q != NULL && (uintptr_t)q != (uintptr_t)shared[0],
	      "parent does not get the child's block");

	/* Attach: a process maps the arena from its memfds at the same address,
	 * the read-only part from the read-only descriptor an agent gets. */
	seen = dtrace_port_zalloc_probe(sizeof(uint64_t));
	CHECK(seen != NULL && linux_arena_rw_contains((uintptr_t)seen, sizeof(uint64_t)),
	      "probe-writable memory in the writable part");
	CHECK(!linux_arena_rw_contains((uintptr_t)shared, sizeof(uint64_t)),
	      "dtrace_port_zalloc memory in the read-only part");
	pid = fork();
	if (pid == 0) {
		uintptr_t base = (uintptr_t)linux_arena;
		size_t size = linux_arena->la_size;
		int fd = linux_arena_fd(), rofd = linux_arena_rofd();

		if (rofd < 0)
			_exit(3);
		munmap(linux_arena, size);
		linux_arena = NULL;
		if (linux_arena_attach(fd, rofd) != 0 || (uintptr_t)linux_arena != base)
			_exit(2);
		*seen = 77;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && *seen == 77, "attach: status %#x", st);

	/* What an agent can do to the read-only part: nothing. */
	pid = fork();
	if (pid == 0) {
		size_t size = linux_arena->la_size;
		int fd = linux_arena_fd(), rofd = linux_arena_rofd();

		munmap(linux_arena, size);
		linux_arena = NULL;
		if (rofd < 0 || linux_arena_attach(fd, rofd) != 0)
			_exit(2);
		_exit(readonly_checks(rofd, shared));
	}
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "read-only part stays read-only for an agent: status %#x (exit %d)", st,
	      WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	linux_arena_destroy();
	TEST_DONE();
}
