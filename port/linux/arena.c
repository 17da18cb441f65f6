/*
 * port/linux/arena.c: the shared arena and dtrace_port_zalloc/free.
 *
 * The arena is two memfds mapped MAP_SHARED at consecutive addresses, the
 * same in every process that takes part, so a pointer the core stores is
 * valid in all of them.  The creator picks a free range (trying a few
 * random hints in fixed windows first, so that agents are likely to find
 * it free) and records it in the header at the arena's start; an attaching
 * process maps both memfds at exactly that place with MAP_FIXED_NOREPLACE
 * or fails.
 *
 * Why two (port.h section 10, linux_impl.h): every traced process maps the
 * arena, and the consumer runs the core too (BEGIN, END, tick-N, the
 * control operations), so nothing the consumer follows without checking
 * may be writable by a traced process.  The first part, read-only to
 * agents, holds the header, the allocator's state and what the core
 * allocates with dtrace_port_zalloc; after the consumer has mapped it
 * writable it seals the memfd with F_SEAL_FUTURE_WRITE (no new writable
 * mapping, no write(2), and a later mapping cannot be mprotect()ed
 * writable: the kernel clears VM_MAYWRITE) and F_SEAL_SHRINK, and gives
 * agents an O_RDONLY descriptor of it (opened again through /proc/self/fd).
 * The second part holds what probe context writes
 * (dtrace_port_zalloc_probe) and the CPU slots; it is sealed against
 * shrinking only, so that a traced process cannot truncate it under the
 * consumer (which would make the consumer's accesses raise SIGBUS).
 *
 * The reservation is large and sparse: memfd pages cost memory only once
 * touched, so never-used memory ("bump" space) is known to be zero.
 *
 * Allocator of the read-only part.  Callers give the size back at free
 * (port.h), so blocks carry no header.  Sizes up to 32 KiB use
 * power-of-two classes with one free list each (the link in the block's
 * first word; reused blocks are zeroed on allocation).  Larger sizes are
 * page multiples taken first-fit from an address-ordered list of free
 * extents that coalesce on free (the node in the extent's first page).
 * The sealed memfd refuses hole punching, so freed extents are cleared
 * when reused.  One robust, process-shared mutex in the header serialises
 * it all.  Never called in probe context, and only by the consumer: agents
 * cannot write this part.
 *
 * Allocator of the writable part.  The same classes and first-fit extents,
 * but every list lives in the consumer's own heap (a traced process could
 * rewrite a link kept in the free memory itself); freed extents are
 * punched (they read as zero again and cost nothing) and free small
 * blocks are cleared when reused.
 *
 * dtrace_port_zalloc_private is this process's own heap: what the core
 * keeps there, traced processes cannot even read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

linux_arena_hdr_t *linux_arena;
linux_arena_rw_t *linux_arena_rw;
static int arena_fd = -1;   /* the writable part's memfd */
static int arena_rofd = -1; /* the read-only part's */

#define SMALL_MIN_SHIFT 4
#define SMALL_MAX ((size_t)1 << (SMALL_MIN_SHIFT + LINUX_ARENA_NCLASSES - 1))

/* A free extent: lives in the first page of the free memory it describes. */
typedef struct arena_extent {
	uintptr_t ae_next;
	size_t ae_size;
	bool ae_tail_zero; /* pages after the first were punched */
} arena_extent_t;

static size_t
arena_default_size(void)
{
	const char *env = getenv("DTRACE_ARENA_SIZE");
	char *end;
	unsigned long long v;

	if (env != NULL) {
		v = strtoull(env, &end, 0);
		if (*end == 'M' || *end == 'm')
			v <<= 20;
		else if (*end == 'G' || *end == 'g')
			v <<= 30;
		if (v >= ((size_t)16 << 20))
			return (size_t)v;
	}
	/* Sparse: only touched pages cost memory. */
	return sizeof(void *) == 8 ? (size_t)8 << 30 : (size_t)512 << 20;
}

static void
arena_lock(void)
{
	int err = pthread_mutex_lock(&linux_arena->la_alloc_lock);

	/* A process died holding it: the lists may hold one stale block, but
	 * going on is better than every participant hanging. */
	if (err == EOWNERDEAD)
		pthread_mutex_consistent(&linux_arena->la_alloc_lock);
}

static void
arena_unlock(void)
{
	pthread_mutex_unlock(&linux_arena->la_alloc_lock);
}

static int
init_shared_mutex(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	int err;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	err = pthread_mutex_init(m, &a);
	if (err == ENOTSUP) {
		/* No robust futex list (set_robust_list is missing under
		 * qemu-user and some sandboxes): still shared, but a process
		 * dying with the lock held now blocks the others. */
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_STALLED);
		err = pthread_mutex_init(m, &a);
	}
	pthread_mutexattr_destroy(&a);
	return err;
}

/*
 * Where shared mappings (the arena, the code arena) go, so that agents
 * can map them at the same place: windows that the kernel leaves alone when
 * it places a process's own mappings.  Linux puts a position-independent
 * executable and its brk heap at two thirds of the address space plus up
 * to 2^28 pages (x86_64: 0x5555_5555_4000 to 0x5655_5555_4000; aarch64
 * 48-bit: 0xaaaa_aaaa_a000 and up; RISC-V Sv39: 0x2a_aaaa_a000 and up),
 * libraries, thread stacks and anonymous memory top down from below the
 * stack, a fixed-address executable at 4 MiB, and, in the legacy bottom-up
 * layout (`ulimit -s unlimited`), mmap upwards from about a sixth of the
 * address space (x86_64: 20 to 21 TiB, seen) or a quarter (aarch64).
 * Window 0 (8 TiB at 8 TiB) is clear of all of these in 47- and 48-bit
 * address spaces; window 1 (64 GiB at 64 GiB) in RISC-V Sv39's 256 GiB
 * and aarch64's 39-bit 512 GiB.  tests/port/arena.c checks them against
 * the layouts of the machine it runs on.
 * Returns false for a window that does not exist.
 */
bool
linux_map_window(int window, uintptr_t *base, uintptr_t *span)
{
	static const struct {
		uintptr_t base, span;
	} windows[] = {{0x080000000000ULL, 0x080000000000ULL}, {0x1000000000ULL, 0x1000000000ULL}};

	if (window < 0 || window >= (int)(sizeof(windows) / sizeof(windows[0])) ||
	    sizeof(void *) < 8)
		return false;
	*base = windows[window].base;
	*span = windows[window].span;
	return true;
}

/*
 * A hint address for a shared mapping of `size` in window `window`.  Which
 * slot of the window is picked at random, so that a second consumer's
 * mappings miss a first one's, which an agent keeps mapped after that
 * consumer leaves (a thread may still be in a trampoline).
 */
uintptr_t
linux_map_hint(int window, size_t size)
{
	uintptr_t base, span, step;
	uint64_t r = 0;

	if (!linux_map_window(window, &base, &span))
		return 0;
	step = ((uintptr_t)size + ((uintptr_t)1 << 30) - 1) & ~(((uintptr_t)1 << 30) - 1);
	if (step == 0 || step > span)
		return 0;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)time(NULL);
	return base + (uintptr_t)(r % (span / step)) * step;
}

/*
 * Map the two memfds at [base, base + rosize) and after it, in place of a
 * reservation already there; `prot` is the read-only part's protection.
 */
static int
arena_map_parts(uintptr_t base, size_t rosize, size_t rwsize, int rofd, int prot, int fd)
{
	if (mmap((void *)base, rosize, prot, MAP_SHARED | MAP_FIXED, rofd, 0) == MAP_FAILED ||
	    mmap((void *)(base + rosize), rwsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) == MAP_FAILED)
		return errno;
	return 0;
}

/* Reserve `size` bytes of address space, at a random hint if one is free. */
static void *
arena_reserve_somewhere(size_t size)
{
	uintptr_t hint;
	void *p;
	int i, w;

	for (w = 0; w < 2; w++) {
		for (i = 0; i < 4; i++) {
			if ((hint = linux_map_hint(w, size)) == 0)
				break;
			p = mmap((void *)hint, size, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
				 -1, 0);
			if (p == (void *)hint)
				return p;
			if (p != MAP_FAILED)
				munmap(p, size); /* an old kernel took it as a hint */
		}
	}
	return mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

static void arena_rw_reset(void);

int
linux_arena_create(size_t size)
{
	linux_arena_hdr_t *h;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), rosize, rwsize;
	void *p = MAP_FAILED;
	int i, err;

	if (linux_arena != NULL)
		return DTRACE_EBUSY;
	if (size == 0)
		size = arena_default_size();
	size = (size + pg - 1) & ~(pg - 1);
	/* A quarter for what only the consumer writes (programs, tables),
	 * the rest for buffers and dynamic variables. */
	rosize = (size / 4 + pg - 1) & ~(pg - 1);
	rwsize = size - rosize;
	arena_rofd = memfd_create("dtrace-arena-ro", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	arena_fd = memfd_create("dtrace-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (arena_fd < 0 || arena_rofd < 0) {
		err = errno;
		goto fail;
	}
	if (ftruncate(arena_rofd, (off_t)rosize) != 0 || ftruncate(arena_fd, (off_t)rwsize) != 0) {
		err = errno;
		goto fail;
	}
	p = arena_reserve_somewhere(size);
	if (p == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	if ((err = arena_map_parts((uintptr_t)p, rosize, rwsize, arena_rofd,
				   PROT_READ | PROT_WRITE, arena_fd)) != 0)
		goto fail;
	/* From here on no process can map the read-only part writable or
	 * write it, nor shrink either part; this process's mapping stays
	 * writable. */
	if (fcntl(arena_rofd, F_ADD_SEALS,
		  F_SEAL_FUTURE_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
	    fcntl(arena_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		err = errno;
		goto fail;
	}
	h = p;
	h->la_size = size;
	h->la_base = (uintptr_t)p;
	h->la_rosize = rosize;
	h->la_pagesize = (uint32_t)pg;
	h->la_bump = ((uintptr_t)p + sizeof(*h) + pg - 1) & ~(uintptr_t)(pg - 1);
	if ((err = init_shared_mutex(&h->la_alloc_lock)) != 0)
		goto fail;
	for (i = 0; i < DTRACE_NLOCKS; i++)
		if ((err = init_shared_mutex(&h->la_locks[i])) != 0)
			goto fail;
	h->la_magic = LINUX_ARENA_MAGIC;
	linux_arena = h;
	linux_arena_rw = (linux_arena_rw_t *)((uintptr_t)p + rosize);
	arena_rw_reset();
	return 0;
fail:
	if (p != MAP_FAILED)
		munmap(p, size);
	if (arena_fd >= 0)
		close(arena_fd);
	if (arena_rofd >= 0)
		close(arena_rofd);
	arena_fd = arena_rofd = -1;
	return err;
}

int
linux_arena_attach(int fd, int rofd)
{
	linux_arena_hdr_t *peek;
	uintptr_t base;
	size_t size, rosize, pg = (size_t)sysconf(_SC_PAGESIZE);
	void *p;
	int err;

	if (linux_arena != NULL)
		return DTRACE_EBUSY;
	peek = mmap(NULL, sizeof(*peek), PROT_READ, MAP_SHARED, rofd, 0);
	if (peek == MAP_FAILED)
		return errno;
	if (peek->la_magic != LINUX_ARENA_MAGIC) {
		munmap(peek, sizeof(*peek));
		return DTRACE_EINVAL;
	}
	base = peek->la_base;
	size = peek->la_size;
	rosize = peek->la_rosize;
	munmap(peek, sizeof(*peek));
	if (rosize == 0 || rosize >= size || (rosize & (pg - 1)) != 0)
		return DTRACE_EINVAL;
	p = mmap((void *)base, size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	if (p != (void *)base) {
		munmap(p, size);
		return DTRACE_EEXIST;
	}
	/* The consumer's process (a forked copy of it, in tests) has a
	 * writable descriptor and may map it so; an agent's is O_RDONLY. */
	err = arena_map_parts(base, rosize, size - rosize, rofd,
			      (fcntl(rofd, F_GETFL) & O_ACCMODE) == O_RDWR
				      ? PROT_READ | PROT_WRITE
				      : PROT_READ,
			      fd);
	if (err != 0) {
		munmap(p, size);
		return err;
	}
	arena_fd = fd;
	arena_rofd = rofd;
	linux_arena = p;
	linux_arena_rw = (linux_arena_rw_t *)(base + rosize);
	return 0;
}

int
linux_arena_fd(void)
{
	return arena_fd;
}

int
linux_arena_rofd(void)
{
	char path[64];

	if (arena_rofd < 0) {
		errno = EBADF;
		return -1;
	}
	/* A new open file description, read-only: an mmap of it can never
	 * be made writable (EACCES), whatever the seals. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", arena_rofd);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * An agent whose consumer has left lets go of that consumer's arena
 * without unmapping it: a thread of the process may still be reading it
 * (a trap in flight when the text was mended).  The writable part's memory
 * is given back (a hole punched in the memfd); the read-only part, which
 * an agent may not punch, is replaced by zero pages in one mmap.  What is
 * read afterwards is zero, which matches no site and no probe; the
 * process may attach another consumer's arena at another address.
 */
void
linux_arena_abandon(void)
{
	uintptr_t base;
	size_t rosize;

	if (linux_arena == NULL)
		return;
	base = (uintptr_t)linux_arena;
	rosize = linux_arena->la_rosize;
	(void)fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			(off_t)(linux_arena->la_size - rosize));
	linux_arena = NULL;
	linux_arena_rw = NULL;
	(void)mmap((void *)base, rosize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	close(arena_fd);
	close(arena_rofd);
	arena_fd = arena_rofd = -1;
}

void
linux_arena_destroy(void)
{
	if (linux_arena == NULL)
		return;
	munmap(linux_arena, linux_arena->la_size);
	linux_arena = NULL;
	linux_arena_rw = NULL;
	close(arena_fd);
	close(arena_rofd);
	arena_fd = arena_rofd = -1;
	arena_rw_reset();
}

bool
linux_arena_contains(uintptr_t addr, size_t len)
{
	uintptr_t base = (uintptr_t)linux_arena;

	return linux_arena != NULL && addr >= base && len <= linux_arena->la_size &&
	       addr - base <= linux_arena->la_size - len;
}

bool
linux_arena_rw_contains(uintptr_t addr, size_t len)
{
	uintptr_t base = (uintptr_t)linux_arena_rw;
	size_t size;

	if (linux_arena == NULL)
		return false;
	size = linux_arena->la_size - linux_arena->la_rosize;
	return addr >= base && len <= size && addr - base <= size - len;
}

static int
small_class(size_t size)
{
	int c = 0;

	while (((size_t)1 << (SMALL_MIN_SHIFT + c)) < size)
		c++;
	return c;
}

/* Take len bytes (aligned to align) of never-used, hence zero, memory. */
static void *
bump_take(size_t len, size_t align)
{
	linux_arena_hdr_t *h = linux_arena;
	uintptr_t p = (h->la_bump + align - 1) & ~(uintptr_t)(align - 1);
	uintptr_t end = h->la_base + h->la_rosize;

	if (p > end || len > end - p)
		return NULL;
	h->la_bump = p + len;
	return (void *)p;
}

static void *
large_alloc(size_t len)
{
	linux_arena_hdr_t *h = linux_arena;
	size_t pg = h->la_pagesize;
	uintptr_t *link = &h->la_extents;
	arena_extent_t *e, *rest;
	bool tail_zero;

	for (; *link != 0; link = &((arena_extent_t *)*link)->ae_next) {
		e = (arena_extent_t *)*link;
		if (e->ae_size < len)
			continue;
		tail_zero = e->ae_tail_zero;
		if (e->ae_size > len) {
			/* Keep the remainder, whose first page is zero if the
			 * tail was punched. */
			rest = (arena_extent_t *)((uintptr_t)e + len);
			rest->ae_next = e->ae_next;
			rest->ae_size = e->ae_size - len;
			rest->ae_tail_zero = tail_zero;
			*link = (uintptr_t)rest;
		} else {
			*link = e->ae_next;
		}
		memset(e, 0, tail_zero ? pg : len);
		return e;
	}
	return bump_take(len, pg);
}

/*
 * The read-only part's free memory cannot be given back: its memfd is
 * sealed against writes, and a punched hole is one.  The caller clears it.
 */
static bool
arena_punch(void *p, size_t len)
{
	(void)p;
	(void)len;
	return false;
}

/* An extent merged into the one before it: its first page (node and old
 * data) becomes part of the predecessor's tail, so it must read as zero.
 * Returns whether the whole extent now does. */
static bool
extent_absorb(arena_extent_t *e, size_t pg)
{
	bool tail_zero = e->ae_tail_zero;

	if (!arena_punch(e, pg))
		memset(e, 0, pg);
	return tail_zero;
}

static void
large_free(void *ptr, size_t len)
{
	linux_arena_hdr_t *h = linux_arena;
	size_t pg = h->la_pagesize;
	uintptr_t p = (uintptr_t)ptr;
	uintptr_t *link = &h->la_extents;
	arena_extent_t *prev = NULL, *e, *next;

	while (*link != 0 && *link < p) {
		prev = (arena_extent_t *)*link;
		link = &prev->ae_next;
	}
	e = (arena_extent_t *)p;
	e->ae_next = *link;
	e->ae_size = len;
	e->ae_tail_zero = len <= pg || arena_punch((char *)p + pg, len - pg);
	*link = p;
	next = (arena_extent_t *)e->ae_next;
	if (next != NULL && p + e->ae_size == (uintptr_t)next) {
		e->ae_next = next->ae_next;
		e->ae_size += next->ae_size;
		e->ae_tail_zero = e->ae_tail_zero && extent_absorb(next, pg);
	}
	if (prev != NULL && (uintptr_t)prev + prev->ae_size == p) {
		prev->ae_next = e->ae_next;
		prev->ae_size += e->ae_size;
		prev->ae_tail_zero = prev->ae_tail_zero && extent_absorb(e, pg);
	}
}

void *
dtrace_port_zalloc(size_t size)
{
	size_t pg;
	void *p;
	int c;

	if (linux_arena == NULL || size == 0)
		return NULL;
	pg = linux_arena->la_pagesize;
	arena_lock();
	if (size <= SMALL_MAX) {
		c = small_class(size);
		size = (size_t)1 << (SMALL_MIN_SHIFT + c);
		p = (void *)linux_arena->la_small[c];
		if (p != NULL) {
			linux_arena->la_small[c] = *(uintptr_t *)p;
			memset(p, 0, size);
		} else {
			p = bump_take(size, size < 64 ? size : 64);
		}
	} else {
		size = (size + pg - 1) & ~(pg - 1);
		p = large_alloc(size);
	}
	if (p != NULL)
		linux_arena->la_inuse += size;
	arena_unlock();
	return p;
}

void
dtrace_port_free(void *ptr, size_t size)
{
	size_t pg;
	int c;

	if (ptr == NULL || linux_arena == NULL)
		return;
	pg = linux_arena->la_pagesize;
	arena_lock();
	if (size <= SMALL_MAX) {
		c = small_class(size == 0 ? 1 : size);
		size = (size_t)1 << (SMALL_MIN_SHIFT + c);
		*(uintptr_t *)ptr = linux_arena->la_small[c];
		linux_arena->la_small[c] = (uintptr_t)ptr;
	} else {
		size = (size + pg - 1) & ~(pg - 1);
		large_free(ptr, size);
	}
	linux_arena->la_inuse -= size;
	arena_unlock();
}

/* ---- The writable part: dtrace_port_zalloc_probe ------------------------- */

/* A free extent of the writable part, in this process's heap. */
typedef struct rw_extent {
	uintptr_t re_addr;
	size_t re_size;
	struct rw_extent *re_next;
} rw_extent_t;

/* Free small blocks of one class: a stack of their addresses. */
typedef struct rw_class {
	uintptr_t *rc_free;
	size_t rc_n, rc_cap;
} rw_class_t;

static pthread_mutex_t rw_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t rw_bump, rw_end;
static rw_extent_t *rw_extents; /* address-ordered, coalesced */
static rw_class_t rw_small[LINUX_ARENA_NCLASSES];

static void
arena_rw_reset(void)
{
	int c;

	pthread_mutex_lock(&rw_lock);
	while (rw_extents != NULL) {
		rw_extent_t *e = rw_extents;

		rw_extents = e->re_next;
		free(e);
	}
	for (c = 0; c < LINUX_ARENA_NCLASSES; c++) {
		free(rw_small[c].rc_free);
		memset(&rw_small[c], 0, sizeof(rw_small[c]));
	}
	rw_bump = rw_end = 0;
	if (linux_arena != NULL) {
		rw_bump = ((uintptr_t)linux_arena_rw + sizeof(linux_arena_rw_t) +
			   linux_arena->la_pagesize - 1) &
			  ~(uintptr_t)(linux_arena->la_pagesize - 1);
		rw_end = (uintptr_t)linux_arena + linux_arena->la_size;
	}
	pthread_mutex_unlock(&rw_lock);
}

/* Give [p, p + len) back so it reads as zero (cleared by hand if the hole
 * cannot be punched: qemu-user passes fallocate on, madvise not). */
static void
rw_punch(uintptr_t p, size_t len)
{
	off_t off = (off_t)(p - (uintptr_t)linux_arena_rw);

	if (fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, (off_t)len) != 0 &&
	    madvise((void *)p, len, MADV_REMOVE) != 0)
		memset((void *)p, 0, len);
}

static uintptr_t
rw_large_alloc(size_t len)
{
	rw_extent_t **link, *e;
	uintptr_t p;

	for (link = &rw_extents; (e = *link) != NULL; link = &e->re_next) {
		if (e->re_size < len)
			continue;
		p = e->re_addr;
		if (e->re_size > len) {
			e->re_addr += len;
			e->re_size -= len;
		} else {
			*link = e->re_next;
			free(e);
		}
		return p; /* punched when freed: zero */
	}
	if (rw_end - rw_bump < len)
		return 0;
	p = rw_bump;
	rw_bump += len;
	return p;
}

static void
rw_large_free(uintptr_t p, size_t len)
{
	rw_extent_t **link = &rw_extents, *prev = NULL, *e, *next;

	rw_punch(p, len);
	while (*link != NULL && (*link)->re_addr < p) {
		prev = *link;
		link = &prev->re_next;
	}
	next = *link;
	if (prev != NULL && prev->re_addr + prev->re_size == p) {
		prev->re_size += len;
		e = prev;
	} else {
		if ((e = malloc(sizeof(*e))) == NULL)
			return; /* lost until the arena goes, but never handed out twice */
		e->re_addr = p;
		e->re_size = len;
		e->re_next = next;
		*link = e;
	}
	if (next != NULL && e->re_addr + e->re_size == next->re_addr) {
		e->re_size += next->re_size;
		e->re_next = next->re_next;
		free(next);
	}
}

/* Blocks smaller than a page share pages; the rest are page multiples. */
static bool
rw_is_small(size_t size, size_t pg)
{
	return size <= SMALL_MAX && ((size_t)1 << (SMALL_MIN_SHIFT + small_class(size))) < pg;
}

void *
dtrace_port_zalloc_probe(size_t size)
{
	size_t pg;
	uintptr_t p = 0;
	rw_class_t *rc;
	int c;

	if (linux_arena == NULL || size == 0)
		return NULL;
	pg = linux_arena->la_pagesize;
	pthread_mutex_lock(&rw_lock);
	if (rw_is_small(size, pg)) {
		c = small_class(size);
		size = (size_t)1 << (SMALL_MIN_SHIFT + c);
		rc = &rw_small[c];
		if (rc->rc_n > 0) {
			p = rc->rc_free[--rc->rc_n];
			memset((void *)p, 0, size);
		} else if ((p = rw_large_alloc(pg)) != 0) {
			/* carve a page into blocks of the class; keep the rest */
			uintptr_t b;
			size_t want = rc->rc_n + pg / size - 1;

			if (want > rc->rc_cap) {
				uintptr_t *nv = realloc(rc->rc_free, want * sizeof(*nv));

				if (nv != NULL) {
					rc->rc_free = nv;
					rc->rc_cap = want;
				}
			}
			for (b = p + pg - size; b > p && rc->rc_n < rc->rc_cap; b -= size)
				rc->rc_free[rc->rc_n++] = b;
		}
	} else {
		size = (size + pg - 1) & ~(pg - 1);
		p = rw_large_alloc(size);
	}
	if (p != 0)
		linux_arena->la_inuse += size;
	pthread_mutex_unlock(&rw_lock);
	return (void *)p;
}

void
dtrace_port_free_probe(void *ptr, size_t size)
{
	size_t pg;
	rw_class_t *rc;
	int c;

	if (ptr == NULL || linux_arena == NULL ||
	    !linux_arena_rw_contains((uintptr_t)ptr, size == 0 ? 1 : size))
		return;
	pg = linux_arena->la_pagesize;
	pthread_mutex_lock(&rw_lock);
	if (size == 0)
		size = 1;
	if (rw_is_small(size, pg)) {
		c = small_class(size);
		size = (size_t)1 << (SMALL_MIN_SHIFT + c);
		rc = &rw_small[c];
		if (rc->rc_n == rc->rc_cap) {
			size_t ncap = rc->rc_cap == 0 ? 64 : rc->rc_cap * 2;
			uintptr_t *nv = realloc(rc->rc_free, ncap * sizeof(*nv));

			if (nv != NULL) {
				rc->rc_free = nv;
				rc->rc_cap = ncap;
			}
		}
		if (rc->rc_n < rc->rc_cap)
			rc->rc_free[rc->rc_n++] = (uintptr_t)ptr;
	} else {
		size = (size + pg - 1) & ~(pg - 1);
		rw_large_free((uintptr_t)ptr, size);
	}
	linux_arena->la_inuse -= size;
	pthread_mutex_unlock(&rw_lock);
}

/* ---- The core's locks: process-shared mutexes in the arena -------------- */

void *
dtrace_port_zalloc_private(size_t size)
{
	return size != 0 ? calloc(1, size) : NULL;
}

void
dtrace_port_free_private(void *ptr, size_t size)
{
	(void)size;
	free(ptr);
}

void
dtrace_port_lock(dtrace_lockid_t lock)
{
	int err = pthread_mutex_lock(&linux_arena->la_locks[lock]);

	if (err == EOWNERDEAD)
		pthread_mutex_consistent(&linux_arena->la_locks[lock]);
	atomic_store(&linux_arena->la_lock_owner[lock], linux_self_id());
}

void
dtrace_port_unlock(dtrace_lockid_t lock)
{
	atomic_store(&linux_arena->la_lock_owner[lock], 0);
	pthread_mutex_unlock(&linux_arena->la_locks[lock]);
}

bool
dtrace_port_lock_held(dtrace_lockid_t lock)
{
	return atomic_load(&linux_arena->la_lock_owner[lock]) == linux_self_id();
}
