/*
 * port/illumos/prov_inst.c: fbt and kinst on illumos.  The providers are
 * kernel/'s (instprov.h); this file gives them the kernel.
 *
 * The kernel's protocol.  A kernel breakpoint (int3, which the #BP handler
 * passes on as a #UD at the same address) reaches dtrace_invop(), which
 * calls trap.c's ill_invop and then this file's hook; the answer names the
 * instruction the kernel's trap code emulates on its way out (amd64
 * invoptrap: ud_push, ud_leave, ud_nop, ud_ret), and anything else is
 * taken for a real #UD.  So the engine only fires the probes
 * (instprov_fire, INSTPROV_STEP_KERNEL) and the kernel carries the
 * instruction out: a site is made only where the original instruction is
 * one of the four it can emulate, the one-byte push %rbp (55), leave (c9),
 * nop (90) and ret (c3), exactly what illumos's fbt patches.  Entry probes
 * therefore need a function that starts with push %rbp (every C function of
 * a kernel built with frame pointers), return probes keep only the ret
 * sites (tail-call jumps are left out, as illumos's fbt leaves them), and
 * kinst can probe only those four instructions.  No trampoline is ever
 * made; dtrace_port_tramp_alloc still gives executable memory from the
 * kernel's module-text arena (kobj_text_alloc on heaptext_arena, within
 * reach of the text) for a port of the engine's stepping.
 *
 * Modules.  dtrace itself, the modules that require it and kmdb are left
 * alone, as are _init and _fini (illumos's fbt: their sizes were once
 * wrong); mod_nenabled keeps a module with an enabled probe loaded (krtld
 * will not unload it), and the dtrace_modload/dtrace_modunload hooks, saved
 * and chained like prov_sdt.c's, tell the providers about the others.
 */
#include "illumos_impl.h"
#include "instprov.h"
#include "tramp.h"

#include <sys/kobj.h>
#include <vm/seg_kmem.h>

/* <sys/dtrace.h>: the answers dtrace_invop() gives the amd64 trap code. */
#define ILL_INVOP_PUSHL_EBP 1
#define ILL_INVOP_LEAVE 3
#define ILL_INVOP_RET 5

static kmutex_t ill_inst_mtx;
static void (*ill_inst_saved_load)(struct modctl *);
static void (*ill_inst_saved_unload)(struct modctl *);

static const char *const ill_inst_exclude[] = {"_init", "_fini", NULL};

static uintptr_t
ill_tramp_chunk(void)
{
	return (uintptr_t)kobj_text_alloc(heaptext_arena, 4096);
}

static ktramp_t ill_tramp = {0, 0, 0, 4096, ill_tramp_chunk};

int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	return ktramp_alloc(&ill_tramp, as, len, addr);
}

/* The kernel's answer for an original instruction, 0 if it has none. */
static int
ill_inst_code(const isa_probe_insn_t *pi)
{
	if (pi->pi_len != 1)
		return 0;
	switch (pi->pi_orig[0]) {
	case 0x55:
		return ILL_INVOP_PUSHL_EBP;
	case 0xc9:
		return ILL_INVOP_LEAVE;
	case 0x90:
		return ILL_INVOP_NOP;
	case 0xc3:
		return ILL_INVOP_RET;
	default:
		return 0;
	}
}

static bool
ill_inst_accept(uintptr_t addr, const isa_probe_insn_t *pi)
{
	(void)addr;
	return ill_inst_code(pi) != 0;
}

/* The breakpoint hook: probe context, interrupts off. */
static int
ill_inst_invop(uintptr_t addr, const isa_regs_t *regs)
{
	const isa_probe_insn_t *pi;
	isa_regs_t r = *regs;

	if ((pi = instprov_fire(addr, &r)) == NULL)
		return 0;
	return ill_inst_code(pi);
}

static void
ill_inst_lock(bool take)
{
	if (take)
		mutex_enter(&ill_inst_mtx);
	else
		mutex_exit(&ill_inst_mtx);
}

static bool
ill_inst_module_ok(const dtrace_port_module_t *mod)
{
	struct modctl *ctl = mod->dpm_port;
	struct modctl_list *l;

	if (strcmp(mod->dpm_name, "dtrace") == 0 || strcmp(mod->dpm_name, "kmdbmod") == 0)
		return false;
	for (l = ctl->mod_requisites; l != NULL; l = l->modl_next)
		if (strcmp(l->modl_modp->mod_modname, "dtrace") == 0)
			return false;
	return true;
}

static void
ill_inst_module_hold(void *port, int delta)
{
	((struct modctl *)port)->mod_nenabled += delta;
}

static void
ill_inst_describe(struct modctl *ctl, dtrace_port_module_t *mod)
{
	struct module *mp = ctl->mod_mp;

	memset(mod, 0, sizeof(*mod));
	mod->dpm_name = ctl->mod_modname;
	mod->dpm_path = ctl->mod_filename;
	mod->dpm_text = mp != NULL ? (uintptr_t)mp->text : 0;
	mod->dpm_textsize = mp != NULL ? mp->text_size : 0;
	mod->dpm_port = ctl;
}

static void
ill_inst_modload(struct modctl *ctl)
{
	dtrace_port_module_t mod;

	ill_inst_describe(ctl, &mod);
	instprov_module_loaded(&mod);
	if (ill_inst_saved_load != NULL)
		ill_inst_saved_load(ctl);
}

/* krtld unloads no module with an enabled probe (mod_nenabled), so this
 * never refuses. */
static void
ill_inst_modunload(struct modctl *ctl)
{
	dtrace_port_module_t mod;

	ill_inst_describe(ctl, &mod);
	(void)instprov_module_unloading(&mod);
	if (ill_inst_saved_unload != NULL)
		ill_inst_saved_unload(ctl);
}

int
ill_inst_init(void)
{
	instprov_conf_t conf;
	int err;

	memset(&conf, 0, sizeof(conf));
	conf.ic_step = INSTPROV_STEP_KERNEL;
	conf.ic_accept = ill_inst_accept;
	conf.ic_module_ok = ill_inst_module_ok;
	conf.ic_module_hold = ill_inst_module_hold;
	conf.ic_exclude = ill_inst_exclude;
	conf.ic_lock = ill_inst_lock;
	mutex_init(&ill_inst_mtx, NULL, MUTEX_DEFAULT, NULL);
	if ((err = instprov_init(&conf)) != 0) {
		mutex_destroy(&ill_inst_mtx);
		return err;
	}
	ill_invop_set(ill_inst_invop);
	ill_inst_saved_load = dtrace_modload;
	ill_inst_saved_unload = dtrace_modunload;
	dtrace_modload = ill_inst_modload;
	dtrace_modunload = ill_inst_modunload;
	return 0;
}

/* Refuses (nothing changed) while a consumer is open; otherwise every
 * patched byte is back when it returns. */
int
ill_inst_fini(void)
{
	int err;

	if ((err = instprov_fini()) != 0)
		return err;
	dtrace_modload = ill_inst_saved_load;
	dtrace_modunload = ill_inst_saved_unload;
	ill_invop_set(NULL);
	mutex_destroy(&ill_inst_mtx);
	return 0;
}
