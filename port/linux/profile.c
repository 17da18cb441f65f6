/*
 * port/linux/profile.c: the `profile` provider (profile-N and tick-N).
 *
 * As DTrace's profile provider: probes are made on demand from the name
 * asked for, "profile-" or "tick-", a decimal number and an optional unit
 * (ns nsec us usec ms msec s sec m min h hour d day hz; none means hz).
 * Intervals below 200 us (5000 Hz) are refused.  Asked for everything
 * (desc == NULL), the provider offers DTrace's usual set: profile-97,
 * -199, -499, -997, -1999, -4001, -4999 and tick-1, -10, -100, -500,
 * -1000, -5000.
 *
 * profile-N fires on every online CPU, tick-N on one, through the cpu
 * timers of cputimer.c: in a signal handler of a thread pinned to the CPU.
 * Arguments are DTrace's: arg0 the kernel PC (0: user space has none),
 * arg1 the interrupted user PC, and for profile-N arg2 how late the firing
 * is, in nanoseconds, against its schedule on that CPU.
 *
 * profile-N also fires in every traced process, on that process's own
 * threads: the enabled probes are published into each agent's block and
 * the agent samples its process's CPU time (agent_profile.c), so that
 * `profile-997 /pid == $target/ { @[ustack()] = count(); }` sees the
 * target's stacks.  tick-N fires once, in the consumer.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_proto.h"
#include "dtrace.h"
#include "linux_impl.h"

#define PROF_MAXCPU 1024

typedef enum { PROF_PROFILE, PROF_TICK } prof_kind_t;

typedef struct prof_probe {
	dtrace_id_t pp_id;
	prof_kind_t pp_kind;
	uint64_t pp_interval;
	linux_cputimer_t *pp_timer;
	uint64_t *pp_expected; /* per hardware CPU, profile-N only */
	bool pp_intargets;     /* enabled: traced processes fire it too */
	struct prof_probe *pp_next;
} prof_probe_t;

/* Every profile probe, for publishing the enabled ones to the agents. */
static prof_probe_t *prof_all;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;

static dtrace_provider_id_t profile_id;
static bool profile_registered;

static const unsigned prof_default_rates[] = {97, 199, 499, 997, 1999, 4001, 4999};
static const unsigned prof_default_ticks[] = {1, 10, 100, 500, 1000, 5000};

static void
profile_create(const char *name)
{
	prof_probe_t *pp;
	uint64_t interval;
	int kind;

	if (!linux_profile_parse(name, &kind, &interval))
		return;
	if (dtrace_probe_lookup(profile_id, "", "", name) != 0)
		return;
	if ((pp = calloc(1, sizeof(*pp))) == NULL)
		return;
	pp->pp_kind = (prof_kind_t)kind;
	pp->pp_interval = interval;
	pp->pp_id = dtrace_probe_create(profile_id, "", "", name, 0, pp);
	if (pp->pp_id == 0) {
		free(pp);
		return;
	}
	pthread_mutex_lock(&prof_lock);
	pp->pp_next = prof_all;
	prof_all = pp;
	pthread_mutex_unlock(&prof_lock);
}

static void
profile_forget(prof_probe_t *pp)
{
	prof_probe_t **pq;

	pthread_mutex_lock(&prof_lock);
	for (pq = &prof_all; *pq != NULL; pq = &(*pq)->pp_next)
		if (*pq == pp) {
			*pq = pp->pp_next;
			break;
		}
	pthread_mutex_unlock(&prof_lock);
}

/*
 * profile-N fires in the traced processes' threads too: each agent arms a
 * timer on its process's CPU time for every enabled profile-N probe (see
 * agent_profile.c).  Write the enabled set into one process's block and
 * tell its agent.
 */
static int
profile_publish_one(linux_proc_t *p, void *arg)
{
	linux_agent_block_t *b = p->lp_block;
	prof_probe_t *pp;
	unsigned n = 0;

	(void)arg;
	if (p->lp_state == LINUX_PROC_GONE)
		return 0;
	for (pp = prof_all; pp != NULL && n < LINUX_AGENT_MAXPROF; pp = pp->pp_next) {
		if (!pp->pp_intargets)
			continue;
		b->lab_prof[n].lap_interval = pp->pp_interval;
		b->lab_prof[n].lap_id = pp->pp_id;
		n++;
	}
	for (; n < LINUX_AGENT_MAXPROF; n++)
		b->lab_prof[n].lap_id = 0;
	__atomic_add_fetch(&b->lab_gen, 1, __ATOMIC_RELEASE);
	(void)linux_agent_notify(p, LINUX_AGENT_PROFILE);
	return 0;
}

static void
profile_publish(void)
{
	pthread_mutex_lock(&prof_lock);
	(void)linux_proc_foreach(profile_publish_one, NULL);
	pthread_mutex_unlock(&prof_lock);
}

void
linux_profile_proc_added(linux_proc_t *p)
{
	pthread_mutex_lock(&prof_lock);
	(void)profile_publish_one(p, NULL);
	pthread_mutex_unlock(&prof_lock);
}

static void
profile_provide(void *parg, const dtrace_probedesc_t *desc)
{
	char name[DTRACE_NAMELEN];
	size_t i;

	(void)parg;
	if (desc != NULL) {
		profile_create(desc->dtpd_name);
		return;
	}
	for (i = 0; i < sizeof(prof_default_rates) / sizeof(prof_default_rates[0]); i++) {
		snprintf(name, sizeof(name), "profile-%u", prof_default_rates[i]);
		profile_create(name);
	}
	for (i = 0; i < sizeof(prof_default_ticks) / sizeof(prof_default_ticks[0]); i++) {
		snprintf(name, sizeof(name), "tick-%u", prof_default_ticks[i]);
		profile_create(name);
	}
}

/* Probe context: the cpu timer's signal handler. */
static void
profile_fire(void *arg, const isa_regs_t *regs)
{
	prof_probe_t *pp = arg;
	uint64_t late = 0, now;
	int cpu;

	if (pp->pp_kind == PROF_PROFILE) {
		cpu = sched_getcpu();
		if (cpu >= 0 && cpu < PROF_MAXCPU) {
			now = dtrace_port_gethrtime();
			if (pp->pp_expected[cpu] == 0 || now < pp->pp_expected[cpu])
				pp->pp_expected[cpu] = now;
			late = now - pp->pp_expected[cpu];
			pp->pp_expected[cpu] += pp->pp_interval;
			if (late >= pp->pp_interval) /* overrun: start again */
				pp->pp_expected[cpu] = now + pp->pp_interval;
		}
	}
	dtrace_probe(pp->pp_id, 0, isa_regs_pc(regs), late, 0, 0);
}

static int
profile_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;
	int err;

	(void)parg;
	(void)id;
	if (pp->pp_timer != NULL)
		return 0;
	if (pp->pp_kind == PROF_PROFILE && pp->pp_expected == NULL) {
		pp->pp_expected = calloc(PROF_MAXCPU, sizeof(uint64_t));
		if (pp->pp_expected == NULL)
			return DTRACE_ENOMEM;
	}
	if ((err = linux_cputimer_start(pp->pp_kind == PROF_PROFILE, pp->pp_interval, profile_fire,
					pp, &pp->pp_timer)) != 0)
		return err;
	if (pp->pp_kind == PROF_PROFILE) {
		pp->pp_intargets = true;
		profile_publish();
	}
	return 0;
}

static void
profile_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;

	(void)parg;
	(void)id;
	linux_cputimer_stop(pp->pp_timer);
	pp->pp_timer = NULL;
	if (pp->pp_intargets) {
		pp->pp_intargets = false;
		profile_publish();
	}
	if (pp->pp_expected != NULL)
		memset(pp->pp_expected, 0, PROF_MAXCPU * sizeof(uint64_t));
}

static void
profile_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;

	(void)parg;
	(void)id;
	linux_cputimer_stop(pp->pp_timer);
	if (pp->pp_intargets) {
		pp->pp_intargets = false;
		profile_publish();
	}
	profile_forget(pp);
	free(pp->pp_expected);
	free(pp);
}

static const dtrace_pops_t profile_pops = {
	.dtps_provide = profile_provide,
	.dtps_enable = profile_enable,
	.dtps_disable = profile_disable,
	.dtps_getargdesc = NULL,
	.dtps_getargval = NULL,
	.dtps_destroy = profile_destroy,
};

/* DTrace's stability for profile: names Evolving/Common, module and
 * function Unstable/Private (there are none), arguments Evolving. */
static const dtrace_pattr_t profile_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
};

int
linux_profile_register(void)
{
	int err;

	if (profile_registered)
		return 0;
	err = dtrace_register("profile", &profile_attr, DTRACE_PRIV_USER, &profile_pops, NULL,
			      &profile_id);
	if (err == 0)
		profile_registered = true;
	return err;
}

int
linux_profile_unregister(void)
{
	int err;

	if (!profile_registered)
		return 0;
	err = dtrace_unregister(profile_id);
	if (err == 0)
		profile_registered = false;
	return err;
}
