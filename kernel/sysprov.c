/*
 * kernel/sysprov.c: the syscall provider's OS-neutral half (sysprov.h).
 *
 * Probes are <module>:<call>:entry and :return for every call the OS half
 * names, made once (a later provide finds them).  A probe's argument is
 * its call number shifted left once, with the low bit set for return.
 */
#include "sysprov.h"

static const ksys_ops_t *ksys_ops;
static dtrace_provider_id_t ksys_id;
static int ksys_nenabled;

#define KSYS_ARG(call, ret) ((void *)(uintptr_t)(((uintptr_t)(call) << 1) | (ret)))
#define KSYS_CALL(a) ((int)((uintptr_t)(a) >> 1))
#define KSYS_RET(a) (((uintptr_t)(a) & 1) != 0)

static void
ksys_provide(void *parg, const dtrace_probedesc_t *desc)
{
	const char *mod = ksys_ops->ks_module;

	(void)parg;
	(void)desc;
	for (int call = 0; call < ksys_ops->ks_ncalls; call++) {
		const char *name = ksys_ops->ks_name(call);

		if (name == NULL || name[0] == '\0' ||
		    dtrace_probe_lookup(ksys_id, mod, name, "entry") != 0)
			continue;
		(void)dtrace_probe_create(ksys_id, mod, name, "entry", 1, KSYS_ARG(call, 0));
		(void)dtrace_probe_create(ksys_id, mod, name, "return", 1, KSYS_ARG(call, 1));
	}
}

static int
ksys_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	ksys_ops->ks_set(KSYS_CALL(parg_probe), KSYS_RET(parg_probe), id);
	if (ksys_nenabled++ == 0 && ksys_ops->ks_active != NULL)
		ksys_ops->ks_active(true);
	return 0;
}

static void
ksys_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	ksys_ops->ks_set(KSYS_CALL(parg_probe), KSYS_RET(parg_probe), 0);
	if (--ksys_nenabled == 0 && ksys_ops->ks_active != NULL)
		ksys_ops->ks_active(false);
}

static void
ksys_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static const dtrace_pops_t ksys_pops = {
	.dtps_provide = ksys_provide,
	.dtps_enable = ksys_enable,
	.dtps_disable = ksys_disable,
	.dtps_destroy = ksys_destroy,
};

/* DTrace's stability for syscall. */
static const dtrace_pattr_t ksys_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

int
ksys_register(const ksys_ops_t *ops)
{
	ksys_ops = ops;
	ksys_nenabled = 0;
	return dtrace_register("syscall", &ksys_attr, DTRACE_PRIV_USER, &ksys_pops, NULL, &ksys_id);
}

/* Unregistering refuses while a consumer is open, and with none open no
 * probe is enabled: every call the OS half set has been unset. */
int
ksys_unregister(void)
{
	return dtrace_unregister(ksys_id);
}
