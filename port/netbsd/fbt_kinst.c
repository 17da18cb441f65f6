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
 * NetBSD's module_register_callbacks is not there), so a site is never
 * made in text that could go away under it: fbt and kinst cover the
 * kernel image, ksyms's "netbsd", which holds the functions of the
 * built-in modules too; modules loaded from the file system, this one
 * among them, are left alone.
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

static bool
dtnb_inst_module_ok(const dtrace_port_module_t *mod)
{
	return mod->dpm_port == NULL; /* the kernel image (modules.c) */
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
