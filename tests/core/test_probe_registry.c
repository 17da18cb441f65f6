/*
 * Providers and probes: dtrace_init registers the `dtrace` provider with
 * BEGIN=1, END=2, ERROR=3; registration refuses bad names, missing
 * callbacks, bad attributes and privileges; probes get the lowest free id,
 * are found by name (NULL fields match anything), carry their argument, and
 * are destroyed by the provider, by condense, or with the provider, which is
 * refused while a consumer is open (unless invalidated) or a probe is
 * enabled.  PROVIDER and PROBES report them.
 */
#include <string.h>

#include "dtrace.h"
#include "test_util.h"
#include "testport.h"

static int destroyed;
static int provided;

static void
p_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
	provided++;
}

static int
p_enable(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
	return 0;
}

static void
p_disable(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
}

static void
p_destroy(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
	destroyed++;
}

static const dtrace_pops_t ops = {
	.dtps_provide = p_provide,
	.dtps_enable = p_enable,
	.dtps_disable = p_disable,
	.dtps_destroy = p_destroy,
};

static const dtrace_pattr_t attr = {
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
};

static void
test_dtrace_provider_probes(dtrace_state_t *st)
{
	dtrace_probedesc_t d;
	dtrace_providerdesc_t pv;

	memset(&d, 0, sizeof(d));
	d.dtpd_id = 1;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBES, &d, NULL), 0);
	CHECK_EQ(d.dtpd_id, 1);
	CHECK_STREQ(d.dtpd_provider, "dtrace");
	CHECK_STREQ(d.dtpd_mod, "");
	CHECK_STREQ(d.dtpd_func, "");
	CHECK_STREQ(d.dtpd_name, "BEGIN");
	d.dtpd_id = 2;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBES, &d, NULL), 0);
	CHECK_STREQ(d.dtpd_name, "END");
	d.dtpd_id = 3;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBES, &d, NULL), 0);
	CHECK_STREQ(d.dtpd_name, "ERROR");

	memset(&pv, 0, sizeof(pv));
	strcpy(pv.dtvd_name, "dtrace");
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROVIDER, &pv, NULL), 0);
	CHECK_EQ(pv.dtvd_attr.dtpa_provider.dtat_name, DTRACE_STABILITY_STABLE);
	CHECK_EQ(pv.dtvd_priv.dtpp_flags, DTRACE_PRIV_NONE);
	strcpy(pv.dtvd_name, "nosuch");
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROVIDER, &pv, NULL), DTRACE_ESRCH);
}

static void
test_register_refusals(void)
{
	dtrace_provider_id_t id;
	dtrace_pops_t bad = ops;
	dtrace_pattr_t badattr = attr;

	CHECK_EQ(dtrace_register("", &attr, 0, &ops, NULL, &id), DTRACE_EINVAL);
	CHECK_EQ(dtrace_register("9lives", &attr, 0, &ops, NULL, &id), DTRACE_EINVAL);
	CHECK_EQ(dtrace_register("has space", &attr, 0, &ops, NULL, &id), DTRACE_EINVAL);
	CHECK_EQ(dtrace_register(NULL, &attr, 0, &ops, NULL, &id), DTRACE_EINVAL);
	bad.dtps_enable = NULL;
	CHECK_EQ(dtrace_register("x", &attr, 0, &bad, NULL, &id), DTRACE_EINVAL);
	bad = ops;
	bad.dtps_destroy = NULL;
	CHECK_EQ(dtrace_register("x", &attr, 0, &bad, NULL, &id), DTRACE_EINVAL);
	badattr.dtpa_name.dtat_class = DTRACE_CLASS_MAX + 1;
	CHECK_EQ(dtrace_register("x", &badattr, 0, &ops, NULL, &id), DTRACE_EINVAL);
	CHECK_EQ(dtrace_register("x", &attr, 0x100, &ops, NULL, &id), DTRACE_EINVAL);
	/* names DTrace accepts: leading '_', '.', '-'; later digits and '`' */
	CHECK_EQ(dtrace_register("_a.b-c9`d", &attr, 0, &ops, NULL, &id), 0);
	CHECK_EQ(dtrace_unregister(id), 0);
}

int
main(void)
{
	dtrace_provider_id_t p1, p2;
	dtrace_id_t a, b2, c, d;
	dtrace_state_t *st;
	dtrace_probedesc_t desc;
	int marker;

	testport_reset(false);
	CHECK_EQ(dtrace_init(), 0);
	CHECK_EQ(dtrace_init(), DTRACE_EBUSY);

	test_register_refusals();

	CHECK_EQ(dtrace_register("alpha", &attr, DTRACE_PRIV_USER, &ops, NULL, &p1), 0);
	a = dtrace_probe_create(p1, "m1", "f1", "entry", 0, &marker);
	b2 = dtrace_probe_create(p1, "m1", "f1", "return", 0, NULL);
	c = dtrace_probe_create(p1, "m2", "f2", "entry", 2, NULL);
	CHECK_EQ(a, 4);
	CHECK_EQ(b2, 5);
	CHECK_EQ(c, 6);
	CHECK(dtrace_probe_arg(p1, a) == &marker);
	CHECK(dtrace_probe_arg(p1, 1) == NULL); /* BEGIN is not alpha's */

	CHECK_EQ(dtrace_probe_lookup(p1, "m1", "f1", "return"), b2);
	CHECK_EQ(dtrace_probe_lookup(p1, "m2", NULL, NULL), c);
	CHECK_EQ(dtrace_probe_lookup(p1, NULL, NULL, "return"), b2);
	CHECK_EQ(dtrace_probe_lookup(p1, "m3", NULL, NULL), 0);
	CHECK_EQ(dtrace_probe_lookup(p1, "", NULL, NULL), 0); /* "" is exact */

	/* the lowest free id is reused */
	CHECK_EQ(dtrace_probe_destroy(p1, b2), 0);
	CHECK_EQ(destroyed, 1);
	CHECK_EQ(dtrace_probe_lookup(p1, "m1", "f1", "return"), 0);
	CHECK_EQ(dtrace_probe_destroy(p1, b2), DTRACE_ENOENT);
	d = dtrace_probe_create(p1, "m3", "f3", "tick", 0, NULL);
	CHECK_EQ(d, 5);

	CHECK_EQ(dtrace_register("beta", &attr, 0, &ops, NULL, &p2), 0);
	CHECK_EQ(dtrace_probe_destroy(p2, a), DTRACE_ENOENT); /* not beta's */

	/* opening a consumer asks every provider to provide */
	provided = 0;
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_NONE, 0, &st), DTRACE_EACCES);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK_EQ(provided, 2);
	test_dtrace_provider_probes(st);

	/* PROBES iterates from an id, skipping holes */
	memset(&desc, 0, sizeof(desc));
	desc.dtpd_id = 6;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBES, &desc, NULL), 0);
	CHECK_EQ(desc.dtpd_id, 6);
	CHECK_STREQ(desc.dtpd_provider, "alpha");
	CHECK_STREQ(desc.dtpd_mod, "m2");
	desc.dtpd_id = 7;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBES, &desc, NULL), DTRACE_ESRCH);

	/* providers cannot leave while a consumer is open, unless invalidated */
	CHECK_EQ(dtrace_unregister(p2), DTRACE_EBUSY);
	CHECK_EQ(dtrace_fini(), DTRACE_EBUSY);
	dtrace_invalidate(p2);
	CHECK_EQ(dtrace_unregister(p2), 0);

	/* condense removes every probe of the provider that is not enabled */
	destroyed = 0;
	CHECK_EQ(dtrace_condense(p1), 0);
	CHECK_EQ(destroyed, 3);
	CHECK_EQ(dtrace_probe_lookup(p1, NULL, NULL, NULL), 0);

	dtrace_state_close(st);
	CHECK_EQ(dtrace_fini(), DTRACE_EBUSY); /* alpha is still registered */
	CHECK_EQ(dtrace_probe_create(p1, "m", "f", "n", 0, NULL), 4);
	destroyed = 0;
	CHECK_EQ(dtrace_unregister(p1), 0);
	CHECK_EQ(destroyed, 1);
	CHECK_EQ(dtrace_fini(), 0);
	testport_reset(true);
	return TEST_DONE();
}
