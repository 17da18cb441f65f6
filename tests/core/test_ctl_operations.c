/*
 * The control operations not covered elsewhere, with DTrace's semantics:
 * CONF; PROBEARG (provider-typed arguments, ARGNONE past the last, EINVAL
 * for bad ids); DOFGET (the state's options as a DOF image that loads
 * again, truncated to the caller's room); REPLICATE plus ENABLE(NULL)
 * (an enabling copied under another probe description, matched on demand;
 * ENOENT when nothing matches); retained enablings picking up probes created
 * after ENABLE; the deadman (a consumer that stops asking STATUS is killed);
 * unknown operations and missing arguments.
 */
#include "core_harness.h"

static void
test_conf_and_probearg(dtrace_state_t *st, dtrace_id_t fire)
{
	dtrace_conf_t conf;
	dtrace_argdesc_t ad;

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_CONF, &conf, NULL), 0);
	CHECK_EQ(conf.dtc_difversion, DIF_VERSION);
	CHECK_EQ(conf.dtc_difintregs, DIF_DIR_NREGS);
	CHECK_EQ(conf.dtc_diftupregs, DIF_DTR_NREGS);
	CHECK_EQ(conf.dtc_ctfmodel, DOF_MODEL_NATIVE);

	memset(&ad, 0, sizeof(ad));
	ad.dtargd_id = fire;
	ad.dtargd_ndx = 1;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), 0);
	CHECK_EQ(ad.dtargd_ndx, 1);
	CHECK_EQ(ad.dtargd_mapping, 1);
	CHECK_STREQ(ad.dtargd_native, "char *");
	CHECK_STREQ(ad.dtargd_xlate, "string");
	ad.dtargd_ndx = 2;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), 0);
	CHECK_EQ(ad.dtargd_ndx, DTRACE_ARGNONE);
	ad.dtargd_ndx = DTRACE_ARGNONE;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), DTRACE_EINVAL);
	ad.dtargd_id = 0;
	ad.dtargd_ndx = 0;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), DTRACE_EINVAL);
	ad.dtargd_id = 9999;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), DTRACE_EINVAL);
	/* the dtrace provider describes no arguments, ERROR's neither (DTrace's dtrace_provider_ops) */
	ad.dtargd_id = 3;
	ad.dtargd_ndx = 0;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEARG, &ad, NULL), 0);
	CHECK_EQ(ad.dtargd_ndx, DTRACE_ARGNONE);
	CHECK_STREQ(ad.dtargd_native, "");
}

static void
test_dofget(void)
{
	dtrace_state_t *st, *st2;
	dofb_t b;
	dof_hdr_t *img;
	dof_sec_t *sec;
	dof_optdesc_t *opt;
	size_t size;
	int rv;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 12345 * 8},
					    {DTRACEOPT_BUFPOLICY, DTRACEOPT_BUFPOLICY_RING}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, &rv), 0);
	CHECK_EQ(rv, 0);

	size = sizeof(dof_hdr_t) + sizeof(dof_sec_t) + DTRACEOPT_MAX * sizeof(dof_optdesc_t);
	img = calloc(1, size);
	img->dofh_loadsz = size;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_DOFGET, img, NULL), 0);
	CHECK_EQ(img->dofh_loadsz, size);
	CHECK_EQ(img->dofh_secnum, 1);
	sec = (dof_sec_t *)(void *)((char *)img + img->dofh_secoff);
	CHECK_EQ(sec->dofs_type, DOF_SECT_OPTDESC);
	opt = (dof_optdesc_t *)(void *)((char *)img + sec->dofs_offset);
	CHECK_EQ(opt[DTRACEOPT_BUFSIZE].dofo_value, 12345 * 8);
	CHECK_EQ(opt[DTRACEOPT_BUFPOLICY].dofo_value, DTRACEOPT_BUFPOLICY_RING);
	CHECK_EQ(opt[DTRACEOPT_STRSIZE].dofo_value, DTRACE_STRSIZE_DEFAULT);

	/* the image loads (unset options are refused, as DTrace does) only
	 * after removing them; set ones carry over */
	for (int i = 0; i < DTRACEOPT_MAX; i++) {
		if (opt[i].dofo_value == (uint64_t)DTRACEOPT_UNSET)
			opt[i].dofo_option = DTRACEOPT_STRSIZE, opt[i].dofo_value = 64;
	}
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st2), 0);
	CHECK_EQ(dtrace_ctl(st2, DTRACE_CTL_ENABLE, img, &rv), 0);
	CHECK_EQ(st2->dts_options[DTRACEOPT_BUFSIZE], 12345 * 8);
	dtrace_state_close(st2);

	/* little room: only the header is copied */
	memset(img, 0xee, size);
	img->dofh_loadsz = sizeof(dof_hdr_t);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_DOFGET, img, NULL), 0);
	CHECK_EQ(img->dofh_secnum, 1);
	CHECK_EQ(*((unsigned char *)img + sizeof(dof_hdr_t)), 0xee);

	free(img);
	dtrace_state_close(st);
	dofb_fini(&b);
}

static void
test_replicate_and_retain(dtrace_provider_id_t p, const dtrace_id_t *ids)
{
	dtrace_state_t *st;
	dtrace_repldesc_t rd;
	dtrace_id_t late;
	dofb_t b;
	int32_t cpu;
	int rv;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0x77);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, &rv), 0);
	CHECK_EQ(rv, 1);

	memset(&rd, 0, sizeof(rd));
	strcpy(rd.dtrpd_match.dtpd_provider, "test");
	strcpy(rd.dtrpd_match.dtpd_name, "fire");
	strcpy(rd.dtrpd_create.dtpd_provider, "test");
	strcpy(rd.dtrpd_create.dtpd_name, "other");
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_REPLICATE, &rd, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, NULL, &rv), 0); /* match again */
	strcpy(rd.dtrpd_match.dtpd_name, "nosuch");
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_REPLICATE, &rd, NULL), DTRACE_ENOENT);

	/* a probe created after the enabling: the provider asks for a rematch */
	late = dtrace_probe_create(p, "late", "f", "fire", 0, NULL);
	dtrace_enabling_matchall();

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	dtrace_probe(ids[1], 21, 0, 0, 0, 0); /* test:::other, replicated */
	dtrace_probe(late, 22, 0, 0, 0, 0);   /* test:late::fire, retained */
	CHECK_EQ(harness_snap(st, 0, false, NULL), 48);
	CHECK_EQ(rd64(harness_data + 16), 21);
	CHECK_EQ(rd64(harness_data + 24 + 16), 22);
	dtrace_state_close(st);
	dofb_fini(&b);
	CHECK_EQ(dtrace_probe_destroy(p, late), 0);
}

static void
test_deadman(dtrace_id_t fire)
{
	dtrace_state_t *st;
	dtrace_status_t stat;
	dofb_t b;
	int32_t cpu;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	testport_set_time(1000);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(testport_timers_active(), 2); /* cleaner and deadman */

	/* a consumer asking for status within 30 s stays alive */
	testport_advance_time(20 * DTRACE_NANOSEC);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	testport_fire_timers(DTRACE_DEADMAN_INTERVAL);
	testport_advance_time(5 * DTRACE_NANOSEC);
	dtrace_probe(fire, 1, 0, 0, 0, 0);
	CHECK_EQ(st->dts_activity, DTRACE_ACTIVITY_ACTIVE);

	/* a probe whose clock reads before the consumer's last sign of life
	 * (it read the time just before the deadman refreshed it) finds the
	 * consumer alive, not 2^64 ns late */
	testport_set_time(st->dts_alive - 1);
	dtrace_probe(fire, 1, 0, 0, 0, 0);
	CHECK_EQ(dtrace_state_activity(st), DTRACE_ACTIVITY_ACTIVE);
	testport_set_time(st->dts_alive + 5 * DTRACE_NANOSEC);

	/* one that stops asking: the deadman stops refreshing, probes kill it */
	testport_advance_time(31 * DTRACE_NANOSEC);
	testport_fire_timers(DTRACE_DEADMAN_INTERVAL);
	dtrace_probe(fire, 2, 0, 0, 0, 0);
	CHECK_EQ(dtrace_state_activity(st), DTRACE_ACTIVITY_KILLED);
	memset(&stat, 0, sizeof(stat));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_killed, 1);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 48); /* only the first two firings */
	dtrace_state_close(st);
	CHECK_EQ(testport_timers_active(), 0);
	dofb_fini(&b);
}

int
main(void)
{
	static const char *const names[] = {"fire", "other", NULL};
	dtrace_id_t ids[2];
	dtrace_provider_id_t p = harness_setup(1, names, ids);
	dtrace_state_t *st;
	int dummy;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	test_conf_and_probearg(st, ids[0]);
	CHECK_EQ(dtrace_ctl(st, (dtrace_ctl_t)3, &dummy, NULL), DTRACE_ENOTSUP);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, NULL, NULL), DTRACE_EFAULT);
	CHECK_EQ(dtrace_ctl(NULL, DTRACE_CTL_CONF, &dummy, NULL), DTRACE_EINVAL);
	dtrace_state_close(st);

	test_dofget();
	test_replicate_and_retain(p, ids);
	test_deadman(ids[0]);

	harness_teardown(p);
	return TEST_DONE();
}
