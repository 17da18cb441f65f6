/*
 * port/freebsd/module.c: the module's load and unload.
 *
 * Load runs fbsd_steps (kernel/kmodule.h), each step undone if a later one
 * fails: the core's locks, the clock, the trap hooks (so nofault loads are
 * safe before anything can fire), the core, signal delivery, the providers
 * (profile, syscall, sdt, then fbt and kinst on the instruction-probe
 * engine), then the device nodes that let consumers in.  Unload is the
 * reverse, and refuses with EBUSY while a consumer holds a state open: the
 * devices go first so nobody new comes in, and come back if a provider
 * cannot leave.  Every kernel hook is put back to the value it had at load.
 *
 * The module is named "dtrace", so the kernel refuses to load it beside
 * FreeBSD's dtrace.ko, with version 2, so that FreeBSD's own provider
 * modules (sdt.ko, fbt.ko, ..., which depend on dtrace version 1 and call
 * its functions) refuse to load beside it.
 */
#include "freebsd_impl.h"
#include "kmodule.h"

#include <sys/module.h>

static const kmod_step_t fbsd_steps[] = {
	{fbsd_locks_init, fbsd_locks_fini},
	{fbsd_time_init, NULL},
	{fbsd_trap_init, fbsd_trap_fini},
	{dtrace_init, dtrace_fini},
	{fbsd_post_init, fbsd_post_fini},
	{fbsd_profile_init, fbsd_profile_fini},
	{fbsd_syscall_init, fbsd_syscall_fini},
	{fbsd_sdt_init, fbsd_sdt_fini},
	{fbsd_inst_init, fbsd_inst_fini},
	{fbsd_dev_init, fbsd_dev_fini},
};

static int
fbsd_modevent(module_t mod, int type, void *data)
{
	(void)mod;
	(void)data;
	switch (type) {
	case MOD_LOAD:
		return kmod_up(fbsd_steps, nitems(fbsd_steps));
	case MOD_UNLOAD: /* everything undone by a refusal is redone */
		return kmod_down(fbsd_steps, nitems(fbsd_steps)) != 0 ? EBUSY : 0;
	case MOD_SHUTDOWN:
	case MOD_QUIESCE:
		return 0;
	default:
		return EOPNOTSUPP;
	}
}

static moduledata_t fbsd_dtrace_mod = {"dtrace", fbsd_modevent, NULL};

DECLARE_MODULE(dtrace, fbsd_dtrace_mod, SI_SUB_DTRACE, SI_ORDER_FIRST);
MODULE_VERSION(dtrace, 2);
