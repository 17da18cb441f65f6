/*
 * port/freebsd/prov_inst.c: fbt and kinst on FreeBSD.  The providers are
 * kernel/'s (instprov.h); this file gives them the kernel.
 *
 * Breakpoints.  trap.c's hook hands every kernel breakpoint to the engine
 * (instprov_breakpoint), which fires the probes and carries the
 * instruction out itself (emulated, or its copy run in a trampoline); the
 * md hook resumes the thread with the registers it left
 * (INSTPROV_STEP_ENGINE).  FreeBSD's own dtrace_invop() protocol
 * (DTRACE_INVOP_PUSHL_EBP and the rest) belongs to dtrace.ko's
 * dtrace_invop_start, which this module replaces, so nothing here answers
 * in it.
 *
 * Per-thread state.  A trampoline that ends with a breakpoint (aarch64,
 * riscv) needs the thread's own record of what to restore there.  The
 * kernel gives every thread td_dtrace, kdtrace_thread_size() bytes zeroed
 * at thread creation for the DTrace module; we are that module, so the
 * engine's inst_thread_t lives there when it fits.
 *
 * Trampolines.  An amd64 copy of an instruction that addresses memory
 * relative to %rip keeps its meaning only within +-2 GiB of the kernel's
 * text, where FreeBSD's kinst maps its trampoline pages (vm_map_find above
 * KERNBASE, kmem_back), with interfaces of <vm/vm_map.h> and
 * <vm/vm_extern.h> the sysroot does not carry.  Trampolines come first
 * from a pool in this module's own text, which the kernel linker placed
 * there (modules are built -mcmodel=kernel), then from malloc(9) with
 * M_EXEC, where such copies are out of reach and make no probe
 * (kernel/tramp.h carves both).  Text is
 * written with dtrace_port_text_write (disable_wp on amd64).  Nothing is
 * given back: a thread may still be in a trampoline.
 *
 * Modules.  A kld that depends on dtrace (a provider written for
 * FreeBSD's DTrace, which cannot load beside us anyway) and the module
 * holding DTrace are left alone, as FreeBSD's fbt does; a file with an
 * enabled probe refuses kld_unload_try (and counts in lf->nenabled, as
 * FreeBSD's fbt keeps it); kld_load makes the probes enabled descriptions
 * ask of a new file.
 */
#include "freebsd_impl.h"
#include "instprov.h"
#include "tramp.h"

#include <sys/eventhandler.h>
#include <sys/linker.h>
#include <sys/sx.h>

/* The trampoline pool: 64 KiB of this module's text. */
KTRAMP_POOL(fbsd_tramp_pool, 65536);

static struct sx fbsd_inst_lock_sx;
static eventhandler_tag fbsd_inst_load_tag, fbsd_inst_unload_tag;

/* FreeBSD's fbt and kinst leave these alone: lock owner methods called in
 * probe context, the fault handler's wrapper, riscv's exception entry. */
static const char *const fbsd_inst_exclude[] = {
    "owner_mtx",          "owner_rm",   "owner_rw",
    "owner_sx",           "trap_check", "cpu_exception_handler*",
    "do_trap_supervisor", NULL,
};

static uintptr_t
fbsd_tramp_page(void)
{
	return (uintptr_t)malloc(PAGE_SIZE, M_DTRACE, M_NOWAIT | M_ZERO | M_EXEC);
}

static ktramp_t fbsd_tramp = {(uintptr_t)fbsd_tramp_pool, 65536, 0, PAGE_SIZE,
			      fbsd_tramp_page};

int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	return ktramp_alloc(&fbsd_tramp, as, len, addr);
}

static void
fbsd_inst_lock(bool take)
{
	if (take)
		sx_xlock(&fbsd_inst_lock_sx);
	else
		sx_xunlock(&fbsd_inst_lock_sx);
}

static inst_thread_t *
fbsd_inst_thread(void)
{
	return (inst_thread_t *)(void *)curthread->td_dtrace;
}

static bool
fbsd_inst_module_ok(const dtrace_port_module_t *mod)
{
	linker_file_t lf = mod->dpm_port;

	if (strcmp(mod->dpm_name, "dtrace") == 0)
		return false;
	for (int i = 0; i < lf->ndeps; i++)
		if (strncmp(lf->deps[i]->filename, "dtrace", 6) == 0)
			return false;
	return true;
}

static void
fbsd_inst_module_hold(void *port, int delta)
{
	((linker_file_t)port)->nenabled += delta;
}

static void
fbsd_inst_kld_load(void *arg, linker_file_t lf)
{
	dtrace_port_module_t mod;
	char name[MAXPATHLEN];

	(void)arg;
	fbsd_module_describe(lf, &mod, name, sizeof(name));
	instprov_module_loaded(&mod);
}

static void
fbsd_inst_kld_unload_try(void *arg, linker_file_t lf, int *error)
{
	dtrace_port_module_t mod;
	char name[MAXPATHLEN];

	(void)arg;
	if (*error != 0)
		return;
	fbsd_module_describe(lf, &mod, name, sizeof(name));
	if (instprov_module_unloading(&mod) != 0)
		*error = EBUSY;
}

int
fbsd_inst_init(void)
{
	instprov_conf_t conf;
	int err;

	memset(&conf, 0, sizeof(conf));
	conf.ic_step = INSTPROV_STEP_ENGINE;
	conf.ic_stack_gap = fbsd_md_stack_gap;
	conf.ic_module_ok = fbsd_inst_module_ok;
	conf.ic_module_hold = fbsd_inst_module_hold;
	conf.ic_exclude = fbsd_inst_exclude;
	if (kdtrace_thread_size() >= sizeof(inst_thread_t))
		conf.ic_thread = fbsd_inst_thread;
	conf.ic_lock = fbsd_inst_lock;
	sx_init(&fbsd_inst_lock_sx, "dtrace fbt/kinst");
	if ((err = instprov_init(&conf)) != 0) {
		sx_destroy(&fbsd_inst_lock_sx);
		return err;
	}
	fbsd_inst_load_tag =
	    EVENTHANDLER_REGISTER(kld_load, fbsd_inst_kld_load, NULL, EVENTHANDLER_PRI_ANY);
	fbsd_inst_unload_tag = EVENTHANDLER_REGISTER(kld_unload_try, fbsd_inst_kld_unload_try, NULL,
	                                             EVENTHANDLER_PRI_ANY);
	return 0;
}

/* Refuses (nothing changed) while a consumer is open; otherwise every
 * patched byte is back when it returns. */
int
fbsd_inst_fini(void)
{
	int err;

	if ((err = instprov_fini()) != 0)
		return err;
	EVENTHANDLER_DEREGISTER(kld_load, fbsd_inst_load_tag);
	EVENTHANDLER_DEREGISTER(kld_unload_try, fbsd_inst_unload_tag);
	sx_destroy(&fbsd_inst_lock_sx);
	return 0;
}
