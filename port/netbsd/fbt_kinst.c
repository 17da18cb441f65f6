/*
 * port/netbsd/fbt_kinst.c: fbt and kinst on NetBSD.  The providers are
 * kernel/'s (instprov.h); this file gives them the kernel.
 *
 * Breakpoints.  On amd64 the int3 vector jumps through
 * dtrace_invop_jump_addr to md_x86_64_invop.S, which moves the trap frame
 * out of the way of the engine's emulated stores (dtnb_md_bp_gap bytes
 * stay free below the interrupted %rsp) and hands kernel breakpoints to
 * instprov_breakpoint(): the engine fires the probes and carries the
 * instruction out itself, emulated or in a trampoline
 * (INSTPROV_STEP_ENGINE).  The aarch64 kernel of 7.99 has no breakpoint
 * hook (md_aarch64_trap.c) and a rump kernel has no trap() at all
 * (md_rump.c): there dtnb_md_breakpoints is false and neither provider is
 * registered, so no probe is ever offered that could not fire.
 *
 * Modules.  7.99 tells no module of another's load or unload (later
 * NetBSD's module_register_callbacks is not there), so a module with a
 * probe of ours is kept loaded: module_hold() before its first probe is
 * made, module_rele() once its last is destroyed (kernel/instprov.c
 * counts them; a held module's unload fails with EBUSY).  Both take
 * kernconfig_lock, which is recursive and already held by the module
 * walk (modules.c) or by module_do_unload() around our own unload.  The
 * kernel image, ksyms's "netbsd", is never held; built-in modules are
 * part of it (their functions are probed there, and their "unload" only
 * runs their fini), so none is walked under its own name.  Left alone too: this
 * module and those that require it.
 *
 * Per-thread state.  A lwp's l_dtrace is filled by thread hooks of
 * NetBSD's own dtrace module that 7.99 offers no other module: there is
 * no ic_thread, and a site whose trampoline ends with a breakpoint (none
 * on amd64) gets no probe.  Trampolines are memory.c's; text is written by
 * md_<isa>_text.c.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/mutex.h>
#include <sys/module.h>

#include "netbsd_impl.h"
#include "instprov.h"

static kmutex_t dtnb_inst_lock;

/* What the breakpoint path (md_x86_64_trap.c dtnb_invop) calls, and what
 * NetBSD's own fbt leaves alone beyond instprov_excluded()'s names. */
static const char *const dtnb_inst_exclude[] = {
    "trap",  "splraise", "spllower",    "cpu_index", "__*",
    "ddb_*", "kauth_*",  "lockdebug_*", NULL,
};

static void
dtnb_inst_lockfn(bool take)
{
	if (take)
		mutex_enter(&dtnb_inst_lock);
	else
		mutex_exit(&dtnb_inst_lock);
}

/* Under kernconfig_lock (modules.c).  The kernel image has no dpm_port. */
static bool
dtnb_inst_module_ok(const dtrace_port_module_t *mod)
{
	const module_t *m = mod->dpm_port;

	if (m == NULL)
		return true;
	if (m->mod_source == MODULE_SOURCE_KERNEL || strcmp(m->mod_info->mi_name, "dtrace") == 0)
		return false;
	for (u_int i = 0; i < m->mod_nrequired; i++)
		if (strcmp(m->mod_required[i]->mod_info->mi_name, "dtrace") == 0)
			return false;
	return true;
}

static int
dtnb_inst_module_pin(const dtrace_port_module_t *mod)
{
	return mod->dpm_port == NULL ? 0 : module_hold(mod->dpm_name);
}

static void
dtnb_inst_module_unpin(const dtrace_port_module_t *mod)
{
	if (mod->dpm_port != NULL)
		module_rele(mod->dpm_name);
}

int
dtnb_inst_init(void)
{
	instprov_conf_t conf;
	int err;

	if (!dtnb_md_breakpoints)
		return 0;
	memset(&conf, 0, sizeof(conf));
	conf.ic_step = INSTPROV_STEP_ENGINE;
	conf.ic_stack_gap = dtnb_md_bp_gap;
	conf.ic_module_ok = dtnb_inst_module_ok;
	conf.ic_module_pin = dtnb_inst_module_pin;
	conf.ic_module_unpin = dtnb_inst_module_unpin;
	conf.ic_exclude = dtnb_inst_exclude;
	conf.ic_lock = dtnb_inst_lockfn;
	mutex_init(&dtnb_inst_lock, MUTEX_DEFAULT, IPL_NONE);
	if ((err = instprov_init(&conf)) != 0)
		mutex_destroy(&dtnb_inst_lock);
	return err;
}

/* Refuses (nothing changed) while a consumer is open; otherwise every
 * patched byte is back when it returns.  The breakpoint hook itself is
 * the trap glue's, put back by dtnb_trap_uninstall. */
int
dtnb_inst_fini(void)
{
	int err;

	if (!dtnb_md_breakpoints)
		return 0;
	if ((err = instprov_fini()) != 0)
		return err;
	mutex_destroy(&dtnb_inst_lock);
	return 0;
}
