/*
 * tests/core/lib/core_harness.h: a provider with a few probes that counts
 * its enables and disables and describes two arguments, and helpers to enable
 * DOF, snapshot buffers and read records, for the core's end-to-end tests
 * (tests/core/test_e2e_core_*.c, test_ctl_*.c, test_ecb_record_layout.c,
 * test_drops_reported_by_status.c).
 */
#ifndef DTRACE_TEST_CORE_HARNESS_H
#define DTRACE_TEST_CORE_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dof_builder.h"
#include "dtrace_impl.h"
#include "nop_provider.h"
#include "test_util.h"

static int harness_enables, harness_disables;

static inline int
harness_enable(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
	harness_enables++;
	return 0;
}

static inline void
harness_disable(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
	harness_disables++;
}

static inline void
harness_getargdesc(void *parg, dtrace_id_t id, void *pp, dtrace_argdesc_t *desc)
{
	(void)parg;
	(void)id;
	(void)pp;
	if (desc->dtargd_ndx >= 2) {
		desc->dtargd_ndx = DTRACE_ARGNONE;
		return;
	}
	strcpy(desc->dtargd_native, desc->dtargd_ndx == 0 ? "uint64_t" : "char *");
	if (desc->dtargd_ndx == 1)
		strcpy(desc->dtargd_xlate, "string");
}

static const dtrace_pops_t harness_ops = {
	.dtps_provide = nop_provide,
	.dtps_enable = harness_enable,
	.dtps_disable = harness_disable,
	.dtps_getargdesc = harness_getargdesc,
	.dtps_destroy = nop_probe,
};
static const dtrace_pattr_t harness_attr = {
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
};

/* test:mod:func:<name> for each name; ids in ids[]. */
static inline dtrace_provider_id_t
harness_setup(uint32_t ncpus, const char *const *names, dtrace_id_t *ids)
{
	dtrace_provider_id_t p = 0;

	CHECK_EQ(nop_start(ncpus), 0);
	CHECK_EQ(dtrace_register("test", &harness_attr, DTRACE_PRIV_USER, &harness_ops, NULL, &p),
		 0);
	for (int i = 0; names[i] != NULL; i++)
		ids[i] = dtrace_probe_create(p, "mod", "func", names[i], 0, NULL);
	return p;
}

static inline void
harness_teardown(dtrace_provider_id_t p)
{
	CHECK_EQ(dtrace_unregister(p), 0);
	CHECK_EQ(nop_stop(), 0); /* aborts if the core leaked */
}

/* Enable the finished image; returns errno, prints the reason on failure. */
static inline int
harness_enable_dof(dtrace_state_t *st, dofb_t *b, int *matched)
{
	int rv = -1, err;

	dofb_finish(b);
	err = dtrace_ctl(st, DTRACE_CTL_ENABLE, b->image, &rv);
	if (err != 0)
		fprintf(stderr, "ENABLE refused (%d): %s\n", err,
			dtrace_state_errmsg(st) ? dtrace_state_errmsg(st) : "?");
	if (matched != NULL)
		*matched = rv;
	return err;
}

static char harness_data[1 << 16];

/* Snapshot CPU `cpu`'s principal (or aggregation) buffer into harness_data. */
static inline uint64_t
harness_snap(dtrace_state_t *st, uint32_t cpu, bool agg, dtrace_bufdesc_t *out)
{
	dtrace_bufdesc_t d;

	memset(&d, 0, sizeof(d));
	d.dtbd_cpu = cpu;
	d.dtbd_size = sizeof(harness_data);
	d.dtbd_data = harness_data;
	CHECK_EQ(dtrace_ctl(st, agg ? DTRACE_CTL_AGGSNAP : DTRACE_CTL_BUFSNAP, &d, NULL), 0);
	if (out != NULL)
		*out = d;
	return d.dtbd_size;
}

/* A snapshot that may be refused: BUFSNAP's or AGGSNAP's answer, and the
 * size taken (UINT64_MAX when refused). */
static inline int
harness_snap_rc(dtrace_state_t *st, uint32_t cpu, bool agg, uint64_t *size)
{
	dtrace_bufdesc_t d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.dtbd_cpu = cpu;
	d.dtbd_size = sizeof(harness_data);
	d.dtbd_data = harness_data;
	rc = dtrace_ctl(st, agg ? DTRACE_CTL_AGGSNAP : DTRACE_CTL_BUFSNAP, &d, NULL);
	if (size != NULL)
		*size = rc == 0 ? d.dtbd_size : UINT64_MAX;
	return rc;
}

static inline uint32_t
rd32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t
rd64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* One-action helpers: dofb_act for trace() of a DIFO. */
static inline dof_actdesc_t
harness_trace(uint32_t difo)
{
	return dofb_act(DTRACEACT_DIFEXPR, difo, 0);
}

/*
 * start { trace(speculation()) } fire { speculate(1); trace(arg0) }
 * commit { commit(1) } on probes test:::start, fire and commit, one
 * speculation of `specsize` bytes, principal buffers of `bufsize`, the
 * cleaner at `cleanrate` (0: the default); enabled and started.
 */
static inline dtrace_state_t *
harness_start_speculating(uint64_t bufsize, uint64_t specsize, uint64_t cleanrate)
{
	dif_instr_t spec[] = {DIF_INSTR_CALL(DIF_SUBR_SPECULATION, 1), DIF_INSTR_RET(1)};
	const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, bufsize},
				    {DTRACEOPT_SPECSIZE, specsize},
				    {DTRACEOPT_NSPEC, 1},
				    {DTRACEOPT_CLEANRATE, cleanrate}};
	dtrace_state_t *st;
	dof_actdesc_t a[2];
	int32_t cpu;
	dofb_t b;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	a[0] = harness_trace(dofb_difo(&b, dofb_type_int(8), spec, 2, NULL, 0, NULL, 0, NULL, 0));
	dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "start"), DOF_SECIDX_NONE,
		     dofb_actions(&b, a, 1), 0);
	a[0] = dofb_act(DTRACEACT_SPECULATE, dofb_difo_const(&b, 1, 8), 0);
	a[1] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
	dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
		     dofb_actions(&b, a, 2), 0);
	a[0] = dofb_act(DTRACEACT_COMMIT, dofb_difo_const(&b, 1, 8), 0);
	dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "commit"), DOF_SECIDX_NONE,
		     dofb_actions(&b, a, 1), 0);
	dofb_options(&b, opts, cleanrate != 0 ? 4 : 3);
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	dofb_fini(&b);
	return st;
}

/*
 * fire { trace(arg0) }  agg { @[arg0] = count() } on probes test:::fire and
 * test:::agg, principal buffers of `bufsize`, 8 KiB of aggregation buffer,
 * buffer policy `policy`; enabled and started.
 */
static inline dtrace_state_t *
harness_start_trace_and_count(uint64_t bufsize, int64_t policy)
{
	dtrace_state_t *st;
	dofb_t b;
	int32_t cpu;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t t = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
		dof_actdesc_t a[3] = {dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 1, 8), 0),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
				      dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0)};

		a[2].dofa_ntuple = 2;
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &t, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "agg"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, 3), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, bufsize},
					    {DTRACEOPT_AGGSIZE, 8192},
					    {DTRACEOPT_BUFPOLICY, (uint64_t)policy}};
		dofb_options(&b, opts, 3);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	dofb_fini(&b);
	return st;
}

#endif /* DTRACE_TEST_CORE_HARNESS_H */
