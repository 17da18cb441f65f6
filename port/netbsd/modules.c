/*
 * port/netbsd/modules.c: module and symbol enumeration (port.h §5).
 *
 * The kernel image is the module "netbsd" (the name ksyms gives its table),
 * followed by every entry of module_list, walked with kernconfig_lock held
 * as kern_module.c requires; a module cannot be unloaded while a callback
 * runs (kernconfig_lock is recursive, so a callback may module_hold()).
 * Symbols are ksyms_mod_foreach() over the module's table, keeping
 * STT_FUNC symbols with a size; their values are absolute addresses, so
 * every module's base is 0.  7.99's headers here declare no kobj_stat(),
 * so a module's text is taken as the span of its functions, from the
 * first one's start to the last one's end.  Built-in modules have no
 * table of their own (their symbols are the kernel's): no span.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/exec_elf.h>
#include <sys/ksyms.h>
#include <sys/module.h>

#include "netbsd_impl.h"

static int
dtnb_span(const char *name, int index, void *value, uint32_t size, int info, void *arg)
{
	uintptr_t *span = arg, lo = (uintptr_t)value;

	(void)name;
	(void)index;
	if (ELF_ST_TYPE(info) != STT_FUNC || size == 0)
		return 0;
	if (span[1] == 0 || lo < span[0])
		span[0] = lo;
	if (lo + size > span[1])
		span[1] = lo + size;
	return 0;
}

static void
dtnb_module_text(dtrace_port_module_t *m)
{
	uintptr_t span[2] = {0, 0};

	(void)ksyms_mod_foreach(m->dpm_name, dtnb_span, span);
	m->dpm_text = span[0];
	m->dpm_textsize = span[1] - span[0];
}

int
dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg)
{
	dtrace_port_module_t m = {.dpm_name = "netbsd"};
	module_t *mod;
	int rc;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	kernconfig_lock();
	dtnb_module_text(&m);
	rc = cb(&m, arg);
	TAILQ_FOREACH(mod, &module_list, mod_chain) {
		if (rc != 0)
			break;
		m.dpm_name = mod->mod_info->mi_name;
		m.dpm_port = mod;
		dtnb_module_text(&m);
		rc = cb(&m, arg);
	}
	kernconfig_unlock();
	return rc;
}

typedef struct {
	dtrace_port_symbol_fn_t cb;
	void *arg;
	int rc;
} dtnb_symwalk_t;

static int
dtnb_symbol(const char *name, int index, void *value, uint32_t size, int info, void *arg)
{
	dtnb_symwalk_t *w = arg;

	(void)index;
	if (ELF_ST_TYPE(info) != STT_FUNC || size == 0 || name[0] == '\0')
		return 0;
	return w->rc = w->cb(name, (uintptr_t)value, size, w->arg);
}

int
dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	dtnb_symwalk_t w = {cb, arg, 0};

	(void)ksyms_mod_foreach(mod->dpm_name, dtnb_symbol, &w);
	return w.rc;
}
