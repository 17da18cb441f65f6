/*
 * port/freebsd/prov_syscall.c: the syscall provider, through the hooks the
 * FreeBSD kernel keeps for it (sys/sysent.h).
 *
 * Every native system call has an entry and a return probe named from
 * syscallnames[].  Enabling one stores its probe id in the sysent entry's
 * sy_entry or sy_return and the syscall path, seeing systrace_enabled and a
 * non-zero id, calls systrace_probe_func with the call's arguments, which
 * fires the probe: entry with the first five arguments, return with the
 * return value (and -1 for an error) in arg0 and arg1 as DTrace does.
 * Only the native ABI (sysent[]) is offered; the freebsd32 and Linux
 * tables are not.
 */
#include "freebsd_impl.h"

#include <sys/syscall.h>
#include <sys/sysent.h>
#include <sys/sysproto.h>

static dtrace_provider_id_t fbsd_sc_id;
static systrace_probe_func_t fbsd_sc_saved_func;
static bool fbsd_sc_saved_enabled;
static int fbsd_sc_nenabled;

/* Probe argument: the sysent index, and whether it is the return probe. */
#define FBSD_SC_ARG(n, ret) ((void *)(uintptr_t)(((n) << 1) | (ret)))
#define FBSD_SC_NUM(a) ((int)((uintptr_t)(a) >> 1))
#define FBSD_SC_RET(a) ((int)((uintptr_t)(a) & 1))

static void
fbsd_sc_probe(struct syscall_args *sa, enum systrace_probe_t type, int retval)
{
	uint32_t id = type == SYSTRACE_ENTRY ? sa->callp->sy_entry : sa->callp->sy_return;
	uint64_t a[5] = {0, 0, 0, 0, 0};

	if (id == 0)
		return;
	if (type == SYSTRACE_ENTRY) {
		for (int i = 0; i < 5 && i < sa->narg; i++)
			a[i] = (uint64_t)sa->args[i];
	} else {
		a[0] = a[1] = (uint64_t)(int64_t)retval;
	}
	dtrace_probe(id, a[0], a[1], a[2], a[3], a[4]);
}

static void
fbsd_sc_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
	for (int n = 0; n < SYS_MAXSYSCALL; n++) {
		const char *name = syscallnames[n];

		if (name == NULL || name[0] == '\0' || sysent[n].sy_call == (sy_call_t *)nosys)
			continue;
		if (dtrace_probe_lookup(fbsd_sc_id, NULL, name, "entry") != 0)
			continue;
		dtrace_probe_create(fbsd_sc_id, "freebsd", name, "entry", 1, FBSD_SC_ARG(n, 0));
		dtrace_probe_create(fbsd_sc_id, "freebsd", name, "return", 1, FBSD_SC_ARG(n, 1));
	}
}

static int
fbsd_sc_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	int n = FBSD_SC_NUM(parg_probe);

	(void)parg;
	if (FBSD_SC_RET(parg_probe))
		sysent[n].sy_return = id;
	else
		sysent[n].sy_entry = id;
	if (fbsd_sc_nenabled++ == 0)
		systrace_enabled = true;
	return 0;
}

static void
fbsd_sc_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	int n = FBSD_SC_NUM(parg_probe);

	(void)parg;
	(void)id;
	if (FBSD_SC_RET(parg_probe))
		sysent[n].sy_return = 0;
	else
		sysent[n].sy_entry = 0;
	if (--fbsd_sc_nenabled == 0)
		systrace_enabled = fbsd_sc_saved_enabled;
}

static void
fbsd_sc_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static const dtrace_pops_t fbsd_sc_pops = {
	.dtps_provide = fbsd_sc_provide,
	.dtps_enable = fbsd_sc_enable,
	.dtps_disable = fbsd_sc_disable,
	.dtps_destroy = fbsd_sc_destroy,
};

static const dtrace_pattr_t fbsd_sc_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

int
fbsd_syscall_init(void)
{
	int err;

	err = dtrace_register("syscall", &fbsd_sc_attr, DTRACE_PRIV_USER, &fbsd_sc_pops, NULL,
			      &fbsd_sc_id);
	if (err != 0)
		return err;
	fbsd_sc_saved_func = systrace_probe_func;
	fbsd_sc_saved_enabled = systrace_enabled;
	systrace_probe_func = fbsd_sc_probe;
	return 0;
}

int
fbsd_syscall_fini(void)
{
	int err;

	if ((err = dtrace_unregister(fbsd_sc_id)) != 0)
		return err;
	systrace_probe_func = fbsd_sc_saved_func;
	systrace_enabled = fbsd_sc_saved_enabled;
	return 0;
}
