/*
 * kernel/profile.c: the profile provider's OS-neutral half (profile.h).
 *
 * Probes are created on demand from their names (any "profile-<n><unit>"
 * or "tick-<n><unit>" a consumer asks for) plus DTrace's default set when
 * every probe is listed.  Enabling a probe asks the OS half to start its
 * timer; the OS half calls kprof_fire() from the timer interrupt, which
 * fires the probe with DTrace's arguments: arg0 the kernel PC or 0, arg1
 * the user PC or 0, and for profile-N arg2 how late this firing is against
 * the CPU's schedule (0 for tick-N).
 */
#include "profile.h"

#define KPROF_INTERVAL_MIN (1000000000ull / 5000)
#define KPROF_NSEC 1000000000ull

static const kprof_ops_t *kprof_ops;
static dtrace_provider_id_t kprof_id;

static const struct {
	const char *name;
	uint64_t mult; /* ns per unit; 0: a rate in hertz */
} kprof_units[] = {
	{"ns", 1},
	{"nsec", 1},
	{"us", 1000ull},
	{"usec", 1000ull},
	{"ms", 1000000ull},
	{"msec", 1000000ull},
	{"s", KPROF_NSEC},
	{"sec", KPROF_NSEC},
	{"m", 60 * KPROF_NSEC},
	{"min", 60 * KPROF_NSEC},
	{"h", 3600 * KPROF_NSEC},
	{"hour", 3600 * KPROF_NSEC},
	{"d", 86400 * KPROF_NSEC},
	{"day", 86400 * KPROF_NSEC},
	{"hz", 0},
	{"", 0},
};

static const uint32_t kprof_default_rates[] = {97, 199, 499, 997, 1999, 4001, 4999};
static const uint32_t kprof_default_ticks[] = {1, 10, 100, 500, 1000, 5000};

static bool
kprof_prefix(const char **s, const char *prefix)
{
	const char *p = *s;

	for (; *prefix != '\0'; prefix++, p++) {
		if (*p != *prefix)
			return false;
	}
	*s = p;
	return true;
}

static bool
kprof_streq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

bool
kprof_parse(const char *name, int *kind, uint64_t *interval_ns)
{
	const char *p = name;
	uint64_t val = 0;
	size_t i, n = sizeof(kprof_units) / sizeof(kprof_units[0]);

	if (kprof_prefix(&p, "profile-"))
		*kind = KPROF_PROFILE;
	else if (kprof_prefix(&p, "tick-"))
		*kind = KPROF_TICK;
	else
		return false;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (val > (UINT64_MAX - 9) / 10)
			return false;
		val = val * 10 + (uint64_t)(*p - '0');
	}
	for (i = 0; i < n && !kprof_streq(p, kprof_units[i].name); i++)
		;
	if (i == n || val == 0)
		return false;
	if (kprof_units[i].mult == 0) {
		val = KPROF_NSEC / val;
	} else {
		if (val > UINT64_MAX / kprof_units[i].mult)
			return false;
		val *= kprof_units[i].mult;
	}
	if (val < KPROF_INTERVAL_MIN)
		return false;
	*interval_ns = val;
	return true;
}

static void
kprof_create(const char *name)
{
	kprof_t *kp;
	int kind;
	uint64_t interval;

	if (!kprof_parse(name, &kind, &interval) ||
	    dtrace_probe_lookup(kprof_id, NULL, NULL, name) != 0)
		return;
	if ((kp = dtrace_port_zalloc(sizeof(*kp))) == NULL)
		return;
	kp->kp_kind = kind;
	kp->kp_interval = interval;
	kp->kp_id = dtrace_probe_create(kprof_id, "", "", name, kprof_ops->ko_aframes, kp);
	if (kp->kp_id == 0)
		dtrace_port_free(kp, sizeof(*kp));
}

/* "<prefix><n>" into buf, without the C library. */
static const char *
kprof_name(char *buf, size_t size, const char *prefix, uint32_t n)
{
	char digits[12];
	size_t len = 0, nd = 0;

	while (*prefix != '\0' && len + 1 < size)
		buf[len++] = *prefix++;
	do {
		digits[nd++] = (char)('0' + n % 10);
		n /= 10;
	} while (n != 0);
	while (nd > 0 && len + 1 < size)
		buf[len++] = digits[--nd];
	buf[len] = '\0';
	return buf;
}

static void
kprof_provide(void *parg, const dtrace_probedesc_t *desc)
{
	char name[DTRACE_NAMELEN];
	size_t i;

	(void)parg;
	if (desc != NULL) {
		kprof_create(desc->dtpd_name);
		return;
	}
	for (i = 0; i < sizeof(kprof_default_rates) / sizeof(kprof_default_rates[0]); i++)
		kprof_create(kprof_name(name, sizeof(name), "profile-", kprof_default_rates[i]));
	for (i = 0; i < sizeof(kprof_default_ticks) / sizeof(kprof_default_ticks[0]); i++)
		kprof_create(kprof_name(name, sizeof(name), "tick-", kprof_default_ticks[i]));
}

static int
kprof_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	kprof_t *kp = parg_probe;
	size_t size = dtrace_port_ncpus() * sizeof(uint64_t);

	(void)parg;
	(void)id;
	/* kprof_fire writes it in probe context: port.h's probe-written kind */
	if (kp->kp_kind == KPROF_PROFILE && kp->kp_expected == NULL &&
	    (kp->kp_expected = dtrace_port_zalloc_probe(size)) == NULL)
		return DTRACE_ENOMEM;
	return kprof_ops->ko_start(kp);
}

static void
kprof_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	kprof_t *kp = parg_probe;

	(void)parg;
	(void)id;
	kprof_ops->ko_stop(kp);
	if (kp->kp_expected != NULL) {
		dtrace_port_free_probe(kp->kp_expected, dtrace_port_ncpus() * sizeof(uint64_t));
		kp->kp_expected = NULL;
	}
}

static void
kprof_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	kprof_t *kp = parg_probe;

	(void)parg;
	(void)id;
	dtrace_port_free(kp, sizeof(*kp));
}

void
kprof_fire(kprof_t *kp, dtrace_cpuid_t cpu, uint64_t pc, uint64_t upc)
{
	uint64_t late = 0;

	if (kp->kp_kind == KPROF_PROFILE && kp->kp_expected != NULL &&
	    cpu < dtrace_port_ncpus()) {
		uint64_t now = dtrace_port_gethrtime(), *due = &kp->kp_expected[cpu];

		if (*due == 0 || now < *due)
			*due = now;
		late = now - *due;
		*due += kp->kp_interval;
		if (late >= kp->kp_interval) /* overrun: start the schedule again */
			*due = now + kp->kp_interval;
	}
	dtrace_probe(kp->kp_id, pc, upc, late, 0, 0);
}

static const dtrace_pops_t kprof_pops = {
	.dtps_provide = kprof_provide,
	.dtps_enable = kprof_enable,
	.dtps_disable = kprof_disable,
	.dtps_destroy = kprof_destroy,
};

/* DTrace's stability for profile. */
static const dtrace_pattr_t kprof_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
};

int
kprof_register(const kprof_ops_t *ops)
{
	kprof_ops = ops;
	return dtrace_register("profile", &kprof_attr, DTRACE_PRIV_USER, &kprof_pops, NULL,
			       &kprof_id);
}

int
kprof_unregister(void)
{
	int err = dtrace_unregister(kprof_id);

	if (err == 0)
		kprof_id = 0;
	return err;
}
