/*
 * port/illumos/prov_profile.c: the profile provider's illumos half, over
 * cyclics (kernel/profile.c owns names, probes and arguments).
 *
 * profile-N is an omnipresent cyclic (one per online CPU, following CPUs as
 * they come and go), tick-N a single cyclic, both at CY_HIGH_LEVEL so they
 * interrupt everything a probe may trace.  The clock interrupt path leaves
 * the interrupted PC in CPU->cpu_profile_pc (kernel) or cpu_profile_upc
 * (user).  cyclic_add, cyclic_add_omni and cyclic_remove want cpu_lock.
 */
#include "illumos_impl.h"

#include <sys/cyclic.h>

#include "profile.h"

static void
ill_prof_fire(void *arg)
{
	cpu_t *cp = CPU;

	kprof_fire(arg, (dtrace_cpuid_t)cp->cpu_id, cp->cpu_profile_pc, cp->cpu_profile_upc);
}

static void
ill_prof_online(void *arg, cpu_t *cpu, cyc_handler_t *hdlr, cyc_time_t *when)
{
	kprof_t *kp = arg;

	(void)cpu;
	hdlr->cyh_func = ill_prof_fire;
	hdlr->cyh_arg = kp;
	hdlr->cyh_level = CY_HIGH_LEVEL;
	when->cyt_when = 0;
	when->cyt_interval = (hrtime_t)kp->kp_interval;
}

static void
ill_prof_offline(void *arg, cpu_t *cpu, void *oarg)
{
	(void)arg;
	(void)cpu;
	(void)oarg;
}

static int
ill_prof_start(kprof_t *kp)
{
	cyclic_id_t id;

	mutex_enter(&cpu_lock);
	if (kp->kp_kind == KPROF_PROFILE) {
		cyc_omni_handler_t omni = {ill_prof_online, ill_prof_offline, kp};

		id = cyclic_add_omni(&omni);
	} else {
		cyc_handler_t hdlr = {ill_prof_fire, kp, CY_HIGH_LEVEL};
		cyc_time_t when = {0, (hrtime_t)kp->kp_interval};

		id = cyclic_add(&hdlr, &when);
	}
	mutex_exit(&cpu_lock);
	kp->kp_os = (void *)id;
	return 0;
}

static void
ill_prof_stop(kprof_t *kp)
{
	mutex_enter(&cpu_lock);
	cyclic_remove((cyclic_id_t)kp->kp_os);
	mutex_exit(&cpu_lock);
	kp->kp_os = NULL;
}

/* cyclic expiry, the handler, then kprof_fire */
static const kprof_ops_t ill_prof_ops = {ill_prof_start, ill_prof_stop, 3};

int
ill_profile_init(void)
{
	return kprof_register(&ill_prof_ops);
}

int
ill_profile_fini(void)
{
	return kprof_unregister();
}
