/*
 * port/netbsd/module.c: the "dtrace" kernel module.
 *
 * MODULE_CMD_INIT brings the framework up in dependency order (dtnb_steps,
 * run by kernel/kmodule.c): per-CPU state and locks, the signal soft
 * interrupt, the core (dtrace_init), the trap hooks, the providers (fbt and kinst last), and
 * last the device, so that nothing is reachable before it works.  MODULE_CMD_FINI takes it down in the
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
#include "kmodule.h"

MODULE(MODULE_CLASS_MISC, dtrace, NULL);

/* cpu_index() is dense below ncpu, which is fixed once the CPUs have
 * attached. */
static int
dtnb_cpus_alloc(void)
{
	dtnb_ncpus = (uint32_t)ncpu;
	dtnb_cpus = kmem_zalloc(dtnb_ncpus * sizeof(*dtnb_cpus), KM_SLEEP);
	return 0;
}

static int
dtnb_cpus_free(void)
{
	if (dtnb_cpus != NULL)
		kmem_free(dtnb_cpus, dtnb_ncpus * sizeof(*dtnb_cpus));
	dtnb_cpus = NULL;
	dtnb_ncpus = 0;
	return 0;
}

/* dtrace_fini refuses only while a state is open, and with the device gone
 * none is. */
static const kmod_step_t dtnb_steps[] = {
	{dtnb_cpus_alloc, dtnb_cpus_free},
	{dtnb_memory_init, dtnb_memory_fini},
	{dtnb_destructive_init, dtnb_destructive_fini},
	{dtrace_init, dtrace_fini},
	{dtnb_trap_install, dtnb_trap_uninstall},
	{dtnb_profile_init, dtnb_profile_fini},
	{dtnb_syscall_init, dtnb_syscall_fini},
	{dtnb_sdt_init, dtnb_sdt_fini},
	{dtnb_inst_init, dtnb_inst_fini},
	{dtnb_device_attach, dtnb_device_detach},
};

static int
dtrace_modcmd(modcmd_t cmd, void *arg)
{
	(void)arg;
	switch (cmd) {
	case MODULE_CMD_INIT:
		return kmod_up(dtnb_steps, __arraycount(dtnb_steps));
	case MODULE_CMD_FINI:
		return kmod_down(dtnb_steps, __arraycount(dtnb_steps));
	case MODULE_CMD_AUTOUNLOAD:
		return EBUSY;
	default:
		return ENOTTY;
	}
}
