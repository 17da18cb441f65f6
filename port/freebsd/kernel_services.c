/*
 * port/freebsd/kernel_services.c: memory, locks, timers, the log, text
 * patching and module enumeration (port.h sections 4, 5, 10, 11, 12) on
 * FreeBSD.  None of it runs in probe context.
 *
 * Memory is malloc(9) of type M_DTRACE with M_NOWAIT | M_ZERO (the core
 * retries buffer sizes with less, it must not sleep for a buffer it can
 * shrink).  The two core locks are sx(9) locks: the core sleeps and
 * cross-calls with them held, which a mutex(9) would forbid.
 *
 * Timers are kernel threads, not callouts: the core's timer functions take
 * the FRAMEWORK sx lock and may sleep, which callout handlers must not.
 * Each timer thread makes the calls due (kernel/ktimer.h), sleeps until the
 * next deadline with tsleep_sbt and is told to stop with a flag and
 * wakeup(); cancel waits until it has returned from the function and
 * exited.
 */
#include "freebsd_impl.h"
#include "ktimer.h"

#include <sys/kthread.h>
#include <sys/linker.h>
#include <sys/sx.h>
#include <sys/time.h>
#include <machine/stdarg.h>

MALLOC_DEFINE(M_DTRACE, "dtrace", "Portable DTrace");

void *
dtrace_port_zalloc(size_t size)
{
	return malloc(size, M_DTRACE, M_NOWAIT | M_ZERO);
}

void
dtrace_port_free(void *ptr, size_t size)
{
	(void)size;
	free(ptr, M_DTRACE);
}

static struct sx fbsd_locks[DTRACE_NLOCKS];

int
fbsd_locks_init(void)
{
	sx_init(&fbsd_locks[DTRACE_LOCK_PROVIDER], "dtrace provider");
	sx_init(&fbsd_locks[DTRACE_LOCK_FRAMEWORK], "dtrace framework");
	return 0;
}

int
fbsd_locks_fini(void)
{
	sx_destroy(&fbsd_locks[DTRACE_LOCK_FRAMEWORK]);
	sx_destroy(&fbsd_locks[DTRACE_LOCK_PROVIDER]);
	return 0;
}

void
dtrace_port_lock(dtrace_lockid_t lock)
{
	sx_xlock(&fbsd_locks[lock]);
}

void
dtrace_port_unlock(dtrace_lockid_t lock)
{
	sx_xunlock(&fbsd_locks[lock]);
}

bool
dtrace_port_lock_held(dtrace_lockid_t lock)
{
	return sx_xlocked(&fbsd_locks[lock]);
}

struct dtrace_port_timer {
	ktimer_t tm_kt;
	volatile int tm_stop; /* asked to stop */
	volatile int tm_done; /* the thread has finished with the timer */
};

static void
fbsd_timer_thread(void *arg)
{
	struct dtrace_port_timer *tm = arg;

	while (!tm->tm_stop)
		tsleep_sbt(tm, 0, "dtrace", nstosbt(ktimer_run(&tm->tm_kt)), 0, C_HARDCLOCK);
	atomic_store_rel_int((volatile u_int *)&tm->tm_done, 1);
	wakeup(__DEVOLATILE(int *, &tm->tm_done));
	kthread_exit();
}

dtrace_port_timer_t *
dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	struct dtrace_port_timer *tm;

	if ((tm = malloc(sizeof(*tm), M_DTRACE, M_WAITOK | M_ZERO)) == NULL)
		return NULL;
	ktimer_init(&tm->tm_kt, interval_ns, fn, arg);
	if (kthread_add(fbsd_timer_thread, tm, NULL, NULL, 0, 0, "dtrace timer") != 0) {
		free(tm, M_DTRACE);
		return NULL;
	}
	return tm;
}

void
dtrace_port_timer_cancel(dtrace_port_timer_t *tm)
{
	if (tm == NULL)
		return;
	tm->tm_stop = 1;
	wakeup(tm);
	while (atomic_load_acq_int((volatile u_int *)&tm->tm_done) == 0)
		tsleep(__DEVOLATILE(int *, &tm->tm_done), 0, "dtrwait", hz / 10 + 1);
	free(tm, M_DTRACE);
}

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	if (as != NULL) /* other processes' text is the pid provider's, not here yet */
		return DTRACE_ENOTSUP;
	return fbsd_md_text_write(addr, bytes, len);
}

/* Kernel text is mapped: a copy (the instruction-probe providers read the
 * functions they patch; they never ask for another address space). */
int
dtrace_port_text_read(void *as, uintptr_t addr, void *buf, size_t len)
{
	if (as != NULL)
		return DTRACE_ENOTSUP;
	memcpy(buf, (const void *)addr, len);
	return 0;
}

/* --- Modules: the kernel linker's files ------------------------------------ */

struct fbsd_modwalk {
	dtrace_port_module_fn_t cb;
	void *arg;
};

/* A linker file as port.h describes a module: the short name ("kernel",
 * "zfs" for zfs.ko) is written to name[namesz]. */
void
fbsd_module_describe(linker_file_t lf, dtrace_port_module_t *mod, char *name, size_t namesz)
{
	size_t n = strlcpy(name, lf->filename, namesz);

	if (n > 3 && n < namesz && strcmp(name + n - 3, ".ko") == 0)
		name[n - 3] = '\0';
	memset(mod, 0, sizeof(*mod));
	mod->dpm_name = name;
	mod->dpm_path = lf->pathname;
	mod->dpm_base = (uintptr_t)lf->address;
	mod->dpm_text = (uintptr_t)lf->address;
	mod->dpm_textsize = lf->size;
	mod->dpm_port = lf;
}

static int
fbsd_module_one(linker_file_t lf, void *arg)
{
	struct fbsd_modwalk *w = arg;
	dtrace_port_module_t mod;
	char name[MAXPATHLEN];

	fbsd_module_describe(lf, &mod, name, sizeof(name));
	return w->cb(&mod, w->arg);
}

int
dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg)
{
	struct fbsd_modwalk w = {cb, arg};

	if (as != NULL)
		return DTRACE_ENOTSUP;
	return linker_file_foreach(fbsd_module_one, &w);
}

struct fbsd_symwalk {
	dtrace_port_symbol_fn_t cb;
	void *arg;
};

static int
fbsd_symbol_one(linker_file_t lf, int ndx, linker_symval_t *sym, void *arg)
{
	struct fbsd_symwalk *w = arg;

	(void)lf;
	(void)ndx;
	return w->cb(sym->name, (uintptr_t)sym->value, sym->size, w->arg);
}

int
dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	struct fbsd_symwalk w = {cb, arg};

	return linker_file_function_listall(mod->dpm_port, fbsd_symbol_one, &w);
}
