/*
 * port/netbsd/module.c: the "dtrace" kernel module.
 *
 * MODULE_CMD_INIT brings the framework up in dependency order: per-CPU
 * state and locks, the signal soft interrupt, the core (dtrace_init), the
 * trap hooks, the providers, and last the device, so that nothing is
 * reachable before it works.  MODULE_CMD_FINI takes it down in the
 * opposite order and refuses (EBUSY) while a consumer is open or a
 * provider cannot leave; whatever was already undone is redone, so a
 * refused unload leaves the module as it was.  Built-in (a rump component)
 * or loaded, the module replaces the system's own DTrace module, whose
 * hooks it refuses to share (md_<isa>_trap.c, md_rump.c).
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/errno.h>
#include <sys/kmem.h>
#include <sys/module.h>

#include "netbsd_impl.h"

MODULE(MODULE_CLASS_MISC, dtrace, NULL);

static const struct {
	int (*init)(void);
	int (*fini)(void);
} dtnb_providers[] = {
	{dtnb_profile_init, dtnb_profile_fini},
	{dtnb_syscall_init, dtnb_syscall_fini},
	{dtnb_sdt_init, dtnb_sdt_fini},
};

/* Take down providers [0, n), last first; on a refusal bring back those
 * already taken down, so the module stays whole. */
static int
dtnb_providers_fini(size_t n)
{
	int err;

	for (size_t i = n; i-- > 0;) {
		if ((err = dtnb_providers[i].fini()) != 0) {
			while (++i < n)
				(void)dtnb_providers[i].init();
			return err;
		}
	}
	return 0;
}

static void
dtnb_cpus_free(void)
{
	if (dtnb_cpus != NULL)
		kmem_free(dtnb_cpus, dtnb_ncpus * sizeof(*dtnb_cpus));
	dtnb_cpus = NULL;
	dtnb_ncpus = 0;
}

static int
dtnb_load(void)
{
	size_t n = 0;
	int err;

	/* cpu_index() is dense below ncpu, which is fixed once the CPUs
	 * have attached. */
	dtnb_ncpus = (uint32_t)ncpu;
	dtnb_cpus = kmem_zalloc(dtnb_ncpus * sizeof(*dtnb_cpus), KM_SLEEP);
	dtnb_memory_init();
	if ((err = dtnb_destructive_init()) != 0)
		goto fail_mem;
	if ((err = dtrace_init()) != 0)
		goto fail_destructive;
	if ((err = dtnb_trap_install()) != 0)
		goto fail_core;
	for (; n < __arraycount(dtnb_providers); n++)
		if ((err = dtnb_providers[n].init()) != 0)
			goto fail_providers;
	if ((err = dtnb_device_attach()) == 0)
		return 0;
fail_providers:
	(void)dtnb_providers_fini(n);
	dtnb_trap_uninstall();
fail_core:
	(void)dtrace_fini();
fail_destructive:
	dtnb_destructive_fini();
fail_mem:
	dtnb_memory_fini();
	dtnb_cpus_free();
	return err;
}

static int
dtnb_unload(void)
{
	int err;

	if ((err = dtnb_device_detach()) != 0)
		return err;
	if ((err = dtnb_providers_fini(__arraycount(dtnb_providers))) != 0) {
		(void)dtnb_device_attach();
		return err;
	}
	dtnb_trap_uninstall();
	/* It refuses only while a state is open, and with the device gone
	 * none is. */
	(void)dtrace_fini();
	dtnb_destructive_fini();
	dtnb_memory_fini();
	dtnb_cpus_free();
	return 0;
}

static int
dtrace_modcmd(modcmd_t cmd, void *arg)
{
	(void)arg;
	switch (cmd) {
	case MODULE_CMD_INIT:
		return dtnb_load();
	case MODULE_CMD_FINI:
		return dtnb_unload();
	case MODULE_CMD_AUTOUNLOAD:
		return EBUSY;
	default:
		return ENOTTY;
	}
}
