/*
 * port/linux/text.c: writing into text (port.h section 4).
 *
 * Own process only (as == NULL).  Page by page, each page is made readable,
 * writable and executable (never non-executable: other threads may be
 * running that text), written with memcpy, and given back the protection
 * /proc/self/maps showed for it (a range may cross into a mapping with
 * another protection).  Where a W^X policy refuses that, the write goes
 * through /proc/self/mem, which the kernel performs like a debugger's poke,
 * ignoring page protection.  The mprotect path comes first because it is
 * an ordinary store: emulators (qemu-user) and sanitizers see it, while a
 * /proc/self/mem write bypasses qemu's detection of self-modifying code.
 * Then the instruction caches are synchronised (__builtin___clear_cache)
 * and, where the kernel supports it, membarrier(SYNC_CORE) makes every
 * other thread's core fetch afresh.
 * Another process's text (as, a traced process's linux_proc_t) is written
 * and read through its /proc/<pid>/mem, which the kernel performs as a
 * debugger's poke (the same permission as ptrace attach), copying on
 * write a private page of its text; the process's own instruction fetch
 * sees the change when it next runs the code, since the kernel writes it
 * through the same physical page the process maps.  Addresses in the code
 * arena (trampolines, codearena.c) are written through the consumer's
 * writable view of it, whichever process they are for.
 * Probe context: no.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "linux_impl.h"

int
linux_proc_mem_read(void *as, uintptr_t addr, void *buf, size_t len)
{
	linux_proc_t *p = as;
	ssize_t n = pread(p->lp_memfd, buf, len, (off_t)addr);

	if (n == (ssize_t)len)
		return 0;
	return n < 0 && errno == EPERM ? DTRACE_EPERM : DTRACE_EFAULT;
}

int
linux_proc_mem_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	linux_proc_t *p = as;
	ssize_t n;

	if (p->lp_state == LINUX_PROC_GONE)
		return DTRACE_ESRCH;
	n = pwrite(p->lp_memfd, bytes, len, (off_t)addr);
	if (n == (ssize_t)len)
		return 0;
	return n < 0 && errno == EPERM ? DTRACE_EPERM : DTRACE_EFAULT;
}

static int
write_proc_mem(uintptr_t addr, const void *bytes, size_t len)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = pwrite(fd, bytes, len, (off_t)addr);
	close(fd);
	if (n < 0)
		return errno;
	return (size_t)n == len ? 0 : DTRACE_EFAULT;
}

/* Protection of the mapping holding addr, from /proc/self/maps. */
static int
mapping_prot(uintptr_t addr, int *prot)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512], perms[8];
	unsigned long lo, hi;
	int found = DTRACE_EFAULT;

	if (f == NULL)
		return errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		if (addr >= lo && addr < hi) {
			*prot = (perms[0] == 'r' ? PROT_READ : 0) |
				(perms[1] == 'w' ? PROT_WRITE : 0) |
				(perms[2] == 'x' ? PROT_EXEC : 0);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * One page at a time, so that each page gets back its own protection even
 * when the range crosses into a mapping with another one.
 */
static int
write_mprotect(uintptr_t addr, const void *bytes, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t at = addr, page, chunk;
	int prot, err;

	while (at < addr + len) {
		page = at & ~(pg - 1);
		chunk = page + pg - at < addr + len - at ? page + pg - at : addr + len - at;
		if ((err = mapping_prot(at, &prot)) != 0)
			return err;
		if (mprotect((void *)page, pg, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
			return errno;
		memcpy((void *)at, (const char *)bytes + (at - addr), chunk);
		if (mprotect((void *)page, pg, prot) != 0)
			return errno;
		at += chunk;
	}
	return 0;
}

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	static int membarrier_ok = -1;
	int err;

	if (len == 0)
		return 0;
	if (linux_code_contains(addr))
		return linux_code_write(addr, bytes, len) ? 0 : DTRACE_EFAULT;
	if (as != NULL)
		return linux_proc_mem_write(as, addr, bytes, len);
	if (write_mprotect(addr, bytes, len) != 0 &&
	    (err = write_proc_mem(addr, bytes, len)) != 0)
		return err;
	__builtin___clear_cache((char *)addr, (char *)addr + len);
	if (membarrier_ok < 0)
		membarrier_ok = syscall(SYS_membarrier,
					LINUX_MEMBARRIER_REGISTER_SYNC_CORE, 0) == 0;
	if (membarrier_ok)
		syscall(SYS_membarrier, LINUX_MEMBARRIER_SYNC_CORE, 0);
	return 0;
}

int
dtrace_port_text_read(void *as, uintptr_t addr, void *buf, size_t len)
{
	struct iovec local = {buf, len}, remote = {(void *)addr, len};

	if (len == 0)
		return 0;
	if (as != NULL)
		return linux_proc_mem_read(as, addr, buf, len);
	/* The caller's own memory, without faulting on a bad address: the
	 * kernel's copy, or (where that is not emulated, as under qemu-user)
	 * the ISA's nofault copy once our fault handler is in place. */
	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len)
		return 0;
	if (linux_trap_installed() && isa_nofault_copy(buf, addr, len).fault == 0)
		return 0;
	return DTRACE_EFAULT;
}
