/*
 * A DOF probe description may name its probe by id (dofp_id, what dtrace -i
 * sends): the loader keeps the id, and the core enables the probe of that id
 * alone, provided the description's non-empty fields also match it, as
 * DTrace's dtrace_match does.  An id no probe has matches nothing.
 */
#include <stdio.h>
#include <string.h>

#include "core_harness.h"

/* Enable one ECB on the description; returns the number of probes matched,
 * and the probe id of EPID 1 in *probe (0 when nothing matched). */
static int
enable_by_id(uint32_t id, const char *prov, const char *mod, const char *func, const char *name,
	     dtrace_id_t *probe)
{
	dtrace_state_t *st;
	dofb_t b;
	int matched = -1;
	struct {
		dtrace_eprobedesc_t ep;
		dtrace_recdesc_t more[1];
	} epd;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		uint32_t pd = dofb_probedesc_id(&b, id, prov, mod, func, name);
		dof_actdesc_t a = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 7, 8), 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
	}
	CHECK_EQ(harness_enable_dof(st, &b, &matched), 0);
	memset(&epd, 0, sizeof(epd));
	epd.ep.dtepd_epid = 1;
	epd.ep.dtepd_nrecs = 1;
	*probe = dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL) == 0 ? epd.ep.dtepd_probeid : 0;
	dofb_fini(&b);
	dtrace_state_close(st);
	return matched;
}

int
main(void)
{
	static const char *const names[] = {"one", "two", "three", NULL};
	dtrace_id_t ids[3], got;
	dtrace_provider_id_t p = harness_setup(1, names, ids);

	/* the id alone: exactly that probe, though the empty fields match all */
	CHECK_EQ(enable_by_id(ids[1], "", "", "", "", &got), 1);
	CHECK_EQ(got, ids[1]);
	CHECK_EQ(enable_by_id(1, "", "", "", "", &got), 1); /* dtrace:::BEGIN */
	CHECK_EQ(got, 1);
	/* the id and fields that agree with it */
	CHECK_EQ(enable_by_id(ids[2], "test", "mod", "func", "three", &got), 1);
	CHECK_EQ(got, ids[2]);
	CHECK_EQ(enable_by_id(ids[2], "test", "", "", "t*", &got), 1);
	CHECK_EQ(got, ids[2]);
	/* fields that disagree with the id's probe: nothing, not the fields' probe */
	CHECK_EQ(enable_by_id(ids[2], "test", "", "", "one", &got), 0);
	CHECK_EQ(got, 0);
	/* an id beyond the last probe */
	CHECK_EQ(enable_by_id(ids[2] + 100, "", "", "", "", &got), 0);
	CHECK_EQ(got, 0);
	/* no id: the fields match as usual (all three test probes) */
	CHECK_EQ(enable_by_id(0, "test", "", "", "", &got), 3);

	harness_teardown(p);
	return TEST_DONE();
}
