/*
 * port/illumos/kernel_services.c: memory, locks, timers, the log, text
 * patching and module enumeration (port.h sections 4, 5, 10, 11, 12) on
 * illumos.  None of it runs in probe context.
 *
 * Memory is kmem_zalloc(KM_NOSLEEP): the core shrinks buffers rather than
 * wait.  The core's locks are adaptive kmutex_t.  Timers are cyclics at
 * CY_LOW_LEVEL, whose handlers run in a low-level interrupt thread that may
 * block on a mutex, as DTrace's cleaner and deadman do; cyclic_add and
 * cyclic_remove want cpu_lock, and cyclic_remove returns only once the
 * handler is no longer running.  Kernel text is writable to the kernel on
 * amd64: a plain store.  Modules are the `modules` list under mod_lock,
 * symbols each module's ELF symbol table.
 */
#include "illumos_impl.h"

#include <sys/cyclic.h>
#include <sys/kobj.h>
#include <sys/varargs.h>

void *
dtrace_port_zalloc(size_t size)
{
	return kmem_zalloc(size, KM_NOSLEEP);
}

void
dtrace_port_free(void *ptr, size_t size)
{
	kmem_free(ptr, size);
}

/* The core's private bookkeeping: in a kernel every allocation is private
 * to the kernel, so the same memory serves. */
void *
dtrace_port_zalloc_private(size_t size)
{
	return dtrace_port_zalloc(size);
}

void
dtrace_port_free_private(void *ptr, size_t size)
{
	dtrace_port_free(ptr, size);
}

/* What probe context writes: no other address space maps kernel memory,
 * so the same memory serves here too. */
void *
dtrace_port_zalloc_probe(size_t size)
{
	return dtrace_port_zalloc(size);
}

void
dtrace_port_free_probe(void *ptr, size_t size)
{
	dtrace_port_free(ptr, size);
}

static kmutex_t ill_locks[DTRACE_NLOCKS];

void
ill_locks_init(void)
{
	for (int i = 0; i < DTRACE_NLOCKS; i++)
		mutex_init(&ill_locks[i], NULL, MUTEX_DEFAULT, NULL);
}

void
ill_locks_fini(void)
{
	for (int i = 0; i < DTRACE_NLOCKS; i++)
		mutex_destroy(&ill_locks[i]);
}

void
dtrace_port_lock(dtrace_lockid_t lock)
{
	mutex_enter(&ill_locks[lock]);
}

void
dtrace_port_unlock(dtrace_lockid_t lock)
{
	mutex_exit(&ill_locks[lock]);
}

bool
dtrace_port_lock_held(dtrace_lockid_t lock)
{
	return MUTEX_HELD(&ill_locks[lock]);
}

struct dtrace_port_timer {
	cyclic_id_t tm_id;
	void (*tm_fn)(void *);
	void *tm_arg;
};

static void
ill_timer_fire(void *arg)
{
	struct dtrace_port_timer *tm = arg;

	tm->tm_fn(tm->tm_arg);
}

dtrace_port_timer_t *
dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	struct dtrace_port_timer *tm = kmem_zalloc(sizeof(*tm), KM_SLEEP);
	cyc_handler_t hdlr;
	cyc_time_t when;

	tm->tm_fn = fn;
	tm->tm_arg = arg;
	hdlr.cyh_func = ill_timer_fire;
	hdlr.cyh_arg = tm;
	hdlr.cyh_level = CY_LOW_LEVEL;
	when.cyt_when = 0;
	when.cyt_interval = (hrtime_t)(interval_ns == 0 ? 1 : interval_ns);
	mutex_enter(&cpu_lock);
	tm->tm_id = cyclic_add(&hdlr, &when);
	mutex_exit(&cpu_lock);
	return tm;
}

void
dtrace_port_timer_cancel(dtrace_port_timer_t *tm)
{
	if (tm == NULL)
		return;
	mutex_enter(&cpu_lock);
	cyclic_remove(tm->tm_id);
	mutex_exit(&cpu_lock);
	kmem_free(tm, sizeof(*tm));
}

void
dtrace_port_log(const char *fmt, va_list ap)
{
	vcmn_err(CE_WARN, fmt, ap);
}

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	if (as != NULL)
		return DTRACE_ENOTSUP;
	memcpy((void *)addr, bytes, len);
	return 0;
}

int
dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg)
{
	struct modctl *ctl = &modules;
	int rv = 0;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	mutex_enter(&mod_lock);
	do {
		struct module *mp = ctl->mod_mp;
		dtrace_port_module_t mod;

		if (!ctl->mod_loaded || mp == NULL)
			continue;
		memset(&mod, 0, sizeof(mod));
		mod.dpm_name = ctl->mod_modname;
		mod.dpm_path = ctl->mod_filename;
		mod.dpm_text = (uintptr_t)mp->text;
		mod.dpm_textsize = mp->text_size;
		mod.dpm_port = ctl;
		rv = cb(&mod, arg);
	} while (rv == 0 && (ctl = ctl->mod_next) != &modules);
	mutex_exit(&mod_lock);
	return rv;
}

int
dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	struct modctl *ctl = mod->dpm_port;
	struct module *mp = ctl->mod_mp;
	int rv = 0;

	if (mp == NULL || mp->symtbl == NULL || mp->symhdr == NULL)
		return 0;
	for (unsigned i = 1; i < mp->nsyms && rv == 0; i++) {
		const Sym *sym = (const Sym *)(void *)(mp->symtbl + i * mp->symhdr->sh_entsize);

		if (ELF_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_value == 0)
			continue;
		rv = cb(mp->strings + sym->st_name, (uintptr_t)sym->st_value, (size_t)sym->st_size,
			arg);
	}
	return rv;
}
