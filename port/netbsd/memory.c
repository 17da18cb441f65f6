/*
 * port/netbsd/memory.c: memory, locks and the log (port.h §10, §12), and
 * reading kernel text and trampolines for instruction probes (§4).
 *
 * kmem_zalloc(KM_NOSLEEP): the core sizes buffers by asking again with
 * less, so it must be told "no" rather than wait for the page daemon.  The
 * two core locks are adaptive kmutexes at IPL_NONE: the core sleeps with
 * them held (cross-calls, xc_wait), which a spin mutex forbids.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/kmem.h>
#include <sys/module.h>
#include <sys/mutex.h>
#include <uvm/uvm_extern.h>

#include "netbsd_impl.h"
#include "tramp.h"

static kmutex_t dtnb_locks[DTRACE_NLOCKS];

void *
dtrace_port_zalloc(size_t size)
{
	return size == 0 ? NULL : kmem_zalloc(size, KM_NOSLEEP);
}

void
dtrace_port_free(void *ptr, size_t size)
{
	if (ptr != NULL)
		kmem_free(ptr, size);
}

/* Kernel text, read with the kernel's fault-catching copy. */
int
dtrace_port_text_read(void *as, uintptr_t addr, void *buf, size_t len)
{
	if (as != NULL)
		return DTRACE_ENOTSUP;
	return kcopy((const void *)addr, buf, len) == 0 ? 0 : DTRACE_EFAULT;
}

/*
 * Trampolines, carved by kernel/tramp.c from wired, zeroed, executable
 * pages of module_map, where the kernel loads modules: on amd64 it lies
 * above the kernel image, within the +-2 GiB of a %rip-relative copy
 * (kernel_map is not; a port with no module_map loads modules there, and
 * so do we).  Never given back: a thread may still be running
 * one after its probe is gone, so the pages stay for the life of the
 * kernel (a reload takes new ones).
 */
static uintptr_t
dtnb_tramp_page(void)
{
	return (uintptr_t)uvm_km_alloc(module_map != NULL ? module_map : kernel_map, PAGE_SIZE, 0,
				       UVM_KMF_WIRED | UVM_KMF_ZERO | UVM_KMF_EXEC | UVM_KMF_NOWAIT);
}

static ktramp_t dtnb_tramp = {0, 0, 0, PAGE_SIZE, dtnb_tramp_page};

int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	return ktramp_alloc(&dtnb_tramp, as, len, addr);
}

void
dtrace_port_lock(dtrace_lockid_t lock)
{
	mutex_enter(&dtnb_locks[lock]);
}

void
dtrace_port_unlock(dtrace_lockid_t lock)
{
	mutex_exit(&dtnb_locks[lock]);
}

bool
dtrace_port_lock_held(dtrace_lockid_t lock)
{
	return mutex_owned(&dtnb_locks[lock]) != 0;
}

int
dtnb_memory_init(void)
{
	for (int i = 0; i < DTRACE_NLOCKS; i++)
		mutex_init(&dtnb_locks[i], MUTEX_DEFAULT, IPL_NONE);
	return 0;
}

int
dtnb_memory_fini(void)
{
	for (int i = 0; i < DTRACE_NLOCKS; i++)
		mutex_destroy(&dtnb_locks[i]);
	return 0;
}
