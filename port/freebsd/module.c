/*
 * port/freebsd/module.c: the module's load and unload.
 *
 * Load, each step undone if a later one fails: the core's locks, the clock,
 * the trap hooks (so nofault loads are safe before anything can fire), the
 * core, signal delivery, the providers (profile, syscall, sdt, then fbt and
 * kinst on the instruction-probe engine), then the device nodes that let
 * consumers in.  Unload is the reverse, and refuses
 * with EBUSY while a consumer holds a state open: the devices go first so
 * nobody new comes in, and come back if a provider cannot leave.  Every
 * kernel hook is put back to the value it had at load.
 *
 * The module is named "dtrace", so the kernel refuses to load it beside
 * FreeBSD's dtrace.ko, with version 2, so that FreeBSD's own provider
 * modules (sdt.ko, fbt.ko, ..., which depend on dtrace version 1 and call
 * its functions) refuse to load beside it.
 */
#include "freebsd_impl.h"

#include <sys/module.h>

static int
fbsd_unregister_providers(void)
{
	int err;

	if ((err = fbsd_inst_fini()) != 0)
		return err;
	if ((err = fbsd_sdt_fini()) != 0) {
		fbsd_inst_init();
		return err;
	}
	if ((err = fbsd_syscall_fini()) != 0) {
		fbsd_sdt_init();
		fbsd_inst_init();
		return err;
	}
	if ((err = fbsd_profile_fini()) != 0) {
		fbsd_syscall_init();
		fbsd_sdt_init();
		fbsd_inst_init();
		return err;
	}
	return 0;
}

static int
fbsd_load(void)
{
	int err;

	fbsd_locks_init();
	if ((err = fbsd_time_init()) != 0)
		goto fail_locks;
	fbsd_trap_init();
	if ((err = dtrace_init()) != 0)
		goto fail_trap;
	fbsd_post_init();
	if ((err = fbsd_profile_init()) != 0)
		goto fail_core;
	if ((err = fbsd_syscall_init()) != 0)
		goto fail_profile;
	if ((err = fbsd_sdt_init()) != 0)
		goto fail_syscall;
	if ((err = fbsd_inst_init()) != 0)
		goto fail_sdt;
	if ((err = fbsd_dev_init()) != 0)
		goto fail_inst;
	return 0;

fail_inst:
	fbsd_inst_fini();
fail_sdt:
	fbsd_sdt_fini();
fail_syscall:
	fbsd_syscall_fini();
fail_profile:
	fbsd_profile_fini();
fail_core:
	fbsd_post_fini();
	dtrace_fini();
fail_trap:
	fbsd_trap_fini();
fail_locks:
	fbsd_locks_fini();
	return err;
}

static int
fbsd_unload(void)
{
	int err;

	fbsd_dev_fini();
	if ((err = fbsd_unregister_providers()) != 0) {
		fbsd_dev_init();
		return EBUSY;
	}
	fbsd_post_fini();
	if ((err = dtrace_fini()) != 0) {
		/* nothing of ours is left registered: only a bug gets here */
		printf("dtrace: framework still busy at unload (%d)\n", err);
		return EBUSY;
	}
	fbsd_trap_fini();
	fbsd_locks_fini();
	return 0;
}

static int
fbsd_modevent(module_t mod, int type, void *data)
{
	(void)mod;
	(void)data;
	switch (type) {
	case MOD_LOAD:
		return fbsd_load();
	case MOD_UNLOAD:
		return fbsd_unload();
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
