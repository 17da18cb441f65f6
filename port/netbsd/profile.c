/*
 * port/netbsd/profile.c: the `profile` provider, profile-N and tick-N.
 *
 * Probes are made on demand from the name asked for, as DTrace's profile
 * provider does: "profile-" or "tick-", a decimal number and an optional
 * unit (ns nsec us usec ms msec s sec m min h hour d day hz; none is hz).
 * Intervals below 200 us (5000 Hz) are refused.  Asked for everything, it
 * offers DTrace's usual set.
 *
 * The clock is a dtrace_port_timer (timer.c: a kernel thread on the
 * kernel's callout clock, hz resolution, shorter intervals kept in
 * bursts).  tick-N fires in that thread; profile-N fires on every CPU,
 * through an xc_broadcast whose function runs on each CPU in turn.  There
 * is no interrupted context, so arg0 and arg1 (DTrace's kernel and user PC)
 * are 0; arg2 of profile-N is how late the firing is against its schedule.
 * A kernel with KDTRACE_HOOKS also has cyclic_clock_func[] (called from
 * hardclock with the interrupted frame); the rump kernel has not, and this
 * provider serves both.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/kmem.h>
#include <sys/xcall.h>

#include "netbsd_impl.h"

#define PROF_INTERVAL_MIN (1000000000ULL / 5000)

typedef struct prof_probe {
	dtrace_id_t pp_id;
	bool pp_tick;
	uint64_t pp_interval;
	uint64_t pp_expected; /* when this firing was due */
	dtrace_port_timer_t *pp_timer;
} prof_probe_t;

static dtrace_provider_id_t prof_id;

static const struct {
	const char *name;
	uint64_t ns; /* per unit; 0: a rate in hertz */
} prof_units[] = {
	{"", 0}, {"hz", 0},
	{"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000},
	{"ms", 1000000}, {"msec", 1000000}, {"s", 1000000000}, {"sec", 1000000000},
	{"m", 60000000000ULL}, {"min", 60000000000ULL},
	{"h", 3600000000000ULL}, {"hour", 3600000000000ULL},
	{"d", 86400000000000ULL}, {"day", 86400000000000ULL},
};

static bool
prof_parse(const char *name, bool *tick, uint64_t *interval)
{
	uint64_t val = 0;
	size_t i;

	if (strncmp(name, "profile-", 8) == 0) {
		*tick = false;
		name += 8;
	} else if (strncmp(name, "tick-", 5) == 0) {
		*tick = true;
		name += 5;
	} else {
		return false;
	}
	if (*name < '0' || *name > '9')
		return false;
	for (; *name >= '0' && *name <= '9'; name++) {
		if (val > (UINT64_MAX - 9) / 10)
			return false;
		val = val * 10 + (uint64_t)(*name - '0');
	}
	for (i = 0; i < __arraycount(prof_units); i++)
		if (strcmp(name, prof_units[i].name) == 0)
			break;
	if (i == __arraycount(prof_units) || val == 0)
		return false;
	if (prof_units[i].ns == 0)
		val = 1000000000ULL / val;
	else if (val > UINT64_MAX / prof_units[i].ns)
		return false;
	else
		val *= prof_units[i].ns;
	*interval = val;
	return val >= PROF_INTERVAL_MIN;
}

static void
prof_create(const char *name)
{
	prof_probe_t *pp;
	uint64_t interval;
	bool tick;

	if (!prof_parse(name, &tick, &interval) ||
	    dtrace_probe_lookup(prof_id, "", "", name) != 0)
		return;
	pp = kmem_zalloc(sizeof(*pp), KM_SLEEP);
	pp->pp_tick = tick;
	pp->pp_interval = interval;
	if ((pp->pp_id = dtrace_probe_create(prof_id, "", "", name, 0, pp)) == 0)
		kmem_free(pp, sizeof(*pp));
}

static void
prof_provide(void *parg, const dtrace_probedesc_t *desc)
{
	static const unsigned rates[] = {97, 199, 499, 997, 1999, 4001, 4999};
	static const unsigned ticks[] = {1, 10, 100, 500, 1000, 5000};
	char name[DTRACE_NAMELEN];

	(void)parg;
	if (desc != NULL) {
		prof_create(desc->dtpd_name);
		return;
	}
	for (size_t i = 0; i < __arraycount(rates); i++) {
		snprintf(name, sizeof(name), "profile-%u", rates[i]);
		prof_create(name);
	}
	for (size_t i = 0; i < __arraycount(ticks); i++) {
		snprintf(name, sizeof(name), "tick-%u", ticks[i]);
		prof_create(name);
	}
}

/* On each CPU, in its cross-call thread. */
static void
prof_fire_here(void *arg, void *late)
{
	prof_probe_t *pp = arg;

	dtrace_probe(pp->pp_id, 0, 0, (uint64_t)(uintptr_t)late, 0, 0);
}

/* The timer thread, once per interval. */
static void
prof_tick(void *arg)
{
	prof_probe_t *pp = arg;
	uint64_t now = dtrace_port_gethrtime(), late;

	if (pp->pp_expected == 0 || now < pp->pp_expected)
		pp->pp_expected = now;
	late = now - pp->pp_expected;
	pp->pp_expected += pp->pp_interval;
	if (pp->pp_tick)
		dtrace_probe(pp->pp_id, 0, 0, 0, 0, 0);
	else
		xc_wait(xc_broadcast(0, prof_fire_here, pp, (void *)(uintptr_t)late));
}

static int
prof_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;

	(void)parg;
	(void)id;
	pp->pp_expected = 0;
	pp->pp_timer = dtrace_port_timer_start(pp->pp_interval, prof_tick, pp);
	return pp->pp_timer == NULL ? DTRACE_ENOMEM : 0;
}

static void
prof_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;

	(void)parg;
	(void)id;
	dtrace_port_timer_cancel(pp->pp_timer);
	pp->pp_timer = NULL;
}

static void
prof_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	prof_probe_t *pp = parg_probe;

	(void)parg;
	(void)id;
	dtrace_port_timer_cancel(pp->pp_timer);
	kmem_free(pp, sizeof(*pp));
}

static const dtrace_pops_t prof_pops = {
	.dtps_provide = prof_provide,
	.dtps_enable = prof_enable,
	.dtps_disable = prof_disable,
	.dtps_destroy = prof_destroy,
};

/* DTrace's stability for profile. */
static const dtrace_pattr_t prof_attr = {
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
};

int
dtnb_profile_init(void)
{
	return dtrace_register("profile", &prof_attr, DTRACE_PRIV_USER, &prof_pops, NULL,
			       &prof_id);
}

int
dtnb_profile_fini(void)
{
	return dtrace_unregister(prof_id);
}
