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
#include <sys/mutex.h>
#include <uvm/uvm_extern.h>

#include "netbsd_impl.h"

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
 * Trampolines: wired, zeroed, executable kernel memory from kernel_map.
 * Never given back: a thread may still be running one after its probe is
 * gone, so the pages stay for the life of the kernel (a reload takes new
 * ones).
 */
int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	vaddr_t va;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	va = uvm_km_alloc(kernel_map, round_page(len), 0,
			  UVM_KMF_WIRED | UVM_KMF_ZERO | UVM_KMF_EXEC | UVM_KMF_NOWAIT);
	if (va == 0)
		return DTRACE_ENOMEM;
	*addr = (uintptr_t)va;
	return 0;
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
