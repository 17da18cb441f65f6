/*
 * port/linux/arena.c: the shared arena and dtrace_port_zalloc/free.
 *
 * The arena is a memfd mapped MAP_SHARED at the same address in every
 * process that takes part, so a pointer the core stores is valid in all of
 * them.  The creator picks a free address (trying a few fixed hints first,
 * so that agents are likely to find the same range free) and records it in
 * the header at the arena's start; an attaching process maps the memfd at
 * exactly that address with MAP_FIXED_NOREPLACE or fails.
 *
 * The reservation is large and sparse: memfd pages cost memory only once
 * touched, so never-used memory ("bump" space) is known to be zero.
 *
 * Allocator.  Callers give the size back at free (port.h), so blocks carry
 * no header.  Sizes up to 32 KiB use power-of-two classes with one free list
 * each (the link in the block's first word; reused blocks are zeroed on
 * allocation).  Larger sizes are page multiples taken first-fit from an
 * address-ordered list of free extents that coalesce on free; the pages of
 * a freed extent after its first are given back to the kernel
 * (a hole punched in the memfd), so they read as zero again and only the
 * first page, which holds the list node, is cleared on reuse.  One robust,
 * process-shared mutex in the header serialises it all.  Never called in
 * probe context.
 *
 * dtrace_port_zalloc_private is this process's own heap: what the core
 * keeps there, traced processes cannot rewrite.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

linux_arena_hdr_t *linux_arena;
static int arena_fd = -1;

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
 * A hint address for a shared mapping (the arena, the code arena) that
 * agents will map at the same place: away from where the kernel places
 * libraries and stacks (top down from 128 TiB) and from the heap, in one
 * window for 47/48-bit address spaces and one that fits RISC-V Sv39's
 * 256 GiB.  Which slot of the window is picked at random, so that a second
 * consumer's mappings miss a first one's, which an agent keeps mapped
 * after that consumer leaves (a thread may still be in a trampoline).
 */
uintptr_t
linux_map_hint(int window, size_t size)
{
	static const struct {
		uintptr_t base, span;
	} windows[] = {{0x500000000000ULL, 0x100000000000ULL}, {0x2000000000ULL, 0x1000000000ULL}};
	uint64_t r = 0;
	uintptr_t step;

	if (window < 0 || window >= (int)(sizeof(windows) / sizeof(windows[0])) ||
	    sizeof(void *) < 8)
		return 0;
	step = ((uintptr_t)size + ((uintptr_t)1 << 30) - 1) & ~(((uintptr_t)1 << 30) - 1);
	if (step == 0 || step > windows[window].span)
		return 0;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)time(NULL);
	return windows[window].base + (uintptr_t)(r % (windows[window].span / step)) * step;
}

static void *
arena_map_somewhere(size_t size)
{
	uintptr_t hint;
	void *p;
	int i, w;

	for (w = 0; w < 2; w++) {
		for (i = 0; i < 4; i++) {
			if ((hint = linux_map_hint(w, size)) == 0)
				break;
			p = mmap((void *)hint, size, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_FIXED_NOREPLACE, arena_fd, 0);
			if (p == (void *)hint)
				return p;
			if (p != MAP_FAILED)
				munmap(p, size); /* an old kernel took it as a hint */
		}
	}
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, arena_fd, 0);
}

int
linux_arena_create(size_t size)
{
	linux_arena_hdr_t *h;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	void *p;
	int i, err;

	if (linux_arena != NULL)
		return DTRACE_EBUSY;
	if (size == 0)
		size = arena_default_size();
	size = (size + pg - 1) & ~(pg - 1);
	arena_fd = memfd_create("dtrace-arena", MFD_CLOEXEC);
	if (arena_fd < 0)
		return errno;
	if (ftruncate(arena_fd, (off_t)size) != 0) {
		err = errno;
		goto fail;
	}
	p = arena_map_somewhere(size);
	if (p == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	h = p;
	h->la_size = size;
	h->la_base = (uintptr_t)p;
	h->la_pagesize = (uint32_t)pg;
	h->la_bump = ((uintptr_t)p + sizeof(*h) + pg - 1) & ~(uintptr_t)(pg - 1);
	if ((err = init_shared_mutex(&h->la_alloc_lock)) != 0)
		goto fail_unmap;
	for (i = 0; i < DTRACE_NLOCKS; i++)
		if ((err = init_shared_mutex(&h->la_locks[i])) != 0)
			goto fail_unmap;
	h->la_magic = LINUX_ARENA_MAGIC;
	linux_arena = h;
	return 0;
fail_unmap:
	munmap(p, size);
fail:
	close(arena_fd);
	arena_fd = -1;
	return err;
}

int
linux_arena_attach(int fd)
{
	linux_arena_hdr_t *peek;
	uintptr_t base;
	size_t size;
	void *p;

	if (linux_arena != NULL)
		return DTRACE_EBUSY;
	peek = mmap(NULL, sizeof(*peek), PROT_READ, MAP_SHARED, fd, 0);
	if (peek == MAP_FAILED)
		return errno;
	if (peek->la_magic != LINUX_ARENA_MAGIC) {
		munmap(peek, sizeof(*peek));
		return DTRACE_EINVAL;
	}
	base = peek->la_base;
	size = peek->la_size;
	munmap(peek, sizeof(*peek));
	p = mmap((void *)base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fd,
		 0);
	if (p == MAP_FAILED)
		return errno;
	if (p != (void *)base) {
		munmap(p, size);
		return DTRACE_EEXIST;
	}
	arena_fd = fd;
	linux_arena = p;
	return 0;
}

int
linux_arena_fd(void)
{
	return arena_fd;
}

/*
 * An agent whose consumer has left lets go of that consumer's arena
 * without unmapping it: a thread of the process may still be reading it
 * (a trap in flight when the text was mended).  The memory is given back
 * (a hole punched in the memfd: what is read afterwards is zero, which
 * matches no site and no probe), the mapping stays, and the process may
 * attach another consumer's arena at another address.
 */
void
linux_arena_abandon(void)
{
	if (linux_arena == NULL)
		return;
	(void)fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			(off_t)linux_arena->la_pagesize, (off_t)(linux_arena->la_size -
								 linux_arena->la_pagesize));
	linux_arena = NULL;
	close(arena_fd);
	arena_fd = -1;
}

void
linux_arena_destroy(void)
{
	if (linux_arena == NULL)
		return;
	munmap(linux_arena, linux_arena->la_size);
	linux_arena = NULL;
	close(arena_fd);
	arena_fd = -1;
}

bool
linux_arena_contains(uintptr_t addr, size_t len)
{
	uintptr_t base = (uintptr_t)linux_arena;

	return linux_arena != NULL && addr >= base && len <= linux_arena->la_size &&
	       addr - base <= linux_arena->la_size - len;
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
	uintptr_t end = h->la_base + h->la_size;

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
 * Give the pages [p, p + len) back so they read as zero: a hole punched in
 * the memfd frees them for every process mapping it.  fallocate first: it
 * acts on the file, so emulators (qemu-user, whose madvise does nothing)
 * pass it to the kernel; MADV_REMOVE is the same through the mapping.
 * Returns false if neither worked and the caller must clear the memory.
 */
static bool
arena_punch(void *p, size_t len)
{
	off_t off = (off_t)((uintptr_t)p - (uintptr_t)linux_arena);

	if (fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, (off_t)len) == 0)
		return true;
	return madvise(p, len, MADV_REMOVE) == 0;
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
