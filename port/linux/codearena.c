/*
 * port/linux/codearena.c: executable memory for trampolines
 * (dtrace_port_tramp_alloc), shared by the consumer and every agent.
 *
 * One memfd, mapped read+execute at the same address in every process that
 * takes part (the consumer picks the address at random in a window, see
 * linux_map_hint; agents map it there or fail, as with the arena), and once more read+write in the consumer only, which
 * is where trampolines are written: no process ever has a mapping that is
 * both writable and executable.  A trampoline is position-dependent only
 * through its contents, so one address works in every traced process.
 * Allocation is a bump pointer under a process-local mutex (only the
 * consumer allocates); nothing is freed before the consumer exits, since a
 * thread may still be inside a trampoline whose probe went away.  Not
 * probe context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "linux_impl.h"

#define CODE_SIZE ((size_t)64 << 20)
#define CODE_ALIGN 16

static pthread_mutex_t code_lock = PTHREAD_MUTEX_INITIALIZER;
static int code_fd = -1;
static uintptr_t code_exec;  /* read+execute view, the same everywhere */
static uint8_t *code_write;  /* the consumer's writable view */
static size_t code_size, code_used;

static int
code_create(void)
{
	void *x = MAP_FAILED, *w;
	uintptr_t hint;
	int i;

	if ((code_fd = memfd_create("dtrace-code", MFD_CLOEXEC)) < 0)
		return errno;
	if (ftruncate(code_fd, (off_t)CODE_SIZE) != 0)
		goto fail;
	for (i = 0; i < 8 && x == MAP_FAILED; i++) {
		if ((hint = linux_map_hint(i / 4, CODE_SIZE)) == 0)
			continue;
		x = mmap((void *)hint, CODE_SIZE, PROT_READ | PROT_EXEC,
			 MAP_SHARED | MAP_FIXED_NOREPLACE, code_fd, 0);
		if (x != MAP_FAILED && x != (void *)hint) {
			munmap(x, CODE_SIZE);
			x = MAP_FAILED;
		}
	}
	if (x == MAP_FAILED)
		x = mmap(NULL, CODE_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED, code_fd, 0);
	if (x == MAP_FAILED)
		goto fail;
	w = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, code_fd, 0);
	if (w == MAP_FAILED) {
		munmap(x, CODE_SIZE);
		goto fail;
	}
	code_exec = (uintptr_t)x;
	code_write = w;
	code_size = CODE_SIZE;
	code_used = 0;
	return 0;
fail:
	close(code_fd);
	code_fd = -1;
	return errno != 0 ? errno : DTRACE_ENOMEM;
}

int
linux_code_info(int *fd, uintptr_t *base, size_t *size)
{
	int err = 0;

	pthread_mutex_lock(&code_lock);
	if (code_fd < 0)
		err = code_create();
	if (err == 0) {
		*fd = code_fd;
		*base = code_exec;
		*size = code_size;
	}
	pthread_mutex_unlock(&code_lock);
	return err;
}

int
linux_code_attach(int fd, uintptr_t base, size_t size)
{
	void *x = mmap((void *)base, size, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED_NOREPLACE,
		       fd, 0);

	if (x == MAP_FAILED)
		return errno;
	if (x != (void *)base) {
		munmap(x, size);
		return DTRACE_EEXIST;
	}
	code_exec = base;
	code_size = size;
	code_fd = fd;
	return 0;
}

int
linux_code_fd(size_t *size)
{
	*size = code_size;
	return code_fd;
}

bool
linux_code_write(uintptr_t addr, const void *bytes, size_t len)
{
	if (code_write == NULL || addr < code_exec || len > code_size ||
	    addr - code_exec > code_size - len)
		return false;
	memcpy(code_write + (addr - code_exec), bytes, len);
	__builtin___clear_cache((char *)addr, (char *)addr + len);
	return true;
}

bool
linux_code_contains(uintptr_t addr)
{
	return code_exec != 0 && addr >= code_exec && addr - code_exec < code_size;
}

int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	int err = 0;

	(void)as; /* one code arena serves every process */
	pthread_mutex_lock(&code_lock);
	if (code_fd < 0)
		err = code_create();
	len = (len + CODE_ALIGN - 1) & ~(size_t)(CODE_ALIGN - 1);
	if (err == 0 && len > code_size - code_used)
		err = DTRACE_ENOMEM;
	if (err == 0) {
		*addr = code_exec + code_used;
		code_used += len;
	}
	pthread_mutex_unlock(&code_lock);
	return err;
}

void
linux_code_destroy(void)
{
	pthread_mutex_lock(&code_lock);
	if (code_write != NULL)
		munmap(code_write, code_size);
	if (code_exec != 0)
		munmap((void *)code_exec, code_size);
	if (code_fd >= 0)
		close(code_fd);
	code_write = NULL;
	code_exec = 0;
	code_fd = -1;
	code_size = code_used = 0;
	pthread_mutex_unlock(&code_lock);
}

/* An agent whose consumer left keeps the old code arena mapped, here and
 * wherever agent_jump.c mapped it again (threads may be inside its
 * trampolines), and may attach a new one elsewhere. */
void
linux_code_abandon(void)
{
	if (code_fd >= 0)
		close(code_fd); /* its mappings stay */
	code_fd = -1;
	code_exec = 0;
	code_size = 0;
}
