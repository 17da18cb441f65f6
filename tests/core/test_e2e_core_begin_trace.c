/*
 * The whole path through the core, by hand: a DOF image with one ECB on
 * dtrace:::BEGIN whose action is trace(<constant>) and one on a provider's
 * probe tracing arg0 and arg1 is enabled, GO fires BEGIN on the calling
 * CPU, the probe fires on another CPU, and BUFSNAP returns exactly the
 * records DTrace would write: dtrace_rechdr_t (EPID, timestamp split in two
 * words), padding to the data's alignment, the values at the offsets EPROBE
 * describes.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_harness.h"

/* the records after the description (dtepd_rec is declared [1]) */
static dtrace_recdesc_t *
recs(dtrace_eprobedesc_t *ep)
{
	return (dtrace_recdesc_t *)(void *)((char *)ep + offsetof(dtrace_eprobedesc_t, dtepd_rec));
}

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_provider_id_t pid;
	dtrace_state_t *st;
	dtrace_id_t fire;
	dofb_t b;
	int rv = -1, err;
	int32_t cpu = -1;
	char data[4096];
	dtrace_bufdesc_t desc;
	struct {
		dtrace_eprobedesc_t ep;
		dtrace_recdesc_t more[3];
	} epd;

	pid = harness_setup(2, names, &fire);
	testport_set_cpu(1);
	testport_set_time(5000);
	CHECK_EQ(fire, 4); /* after BEGIN, END, ERROR */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);

	/* BEGIN { trace(0x1122334455667788) }  test:::fire { trace(arg0); trace((int)arg1) } */
	dofb_init(&b);
	{
		uint32_t pd = dofb_probedesc(&b, "dtrace", "", "", "BEGIN");
		dof_actdesc_t a = dofb_act(DTRACEACT_DIFEXPR,
					   dofb_difo_const(&b, 0x1122334455667788ULL, 8), 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0xbe);
	}
	{
		uint32_t pd = dofb_probedesc(&b, "test", "", "", "fire");
		dof_actdesc_t a[2] = {
			dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0),
			dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG1, 4), 0),
		};
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), 0xf1);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	dofb_finish(&b);

	err = dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv);
	CHECK_EQ(err, 0);
	if (err != 0)
		fprintf(stderr, "refused: %s\n", dtrace_state_errmsg(st));
	CHECK_EQ(rv, 2);       /* two probes matched */
	CHECK_EQ(harness_enables, 1);  /* test:::fire was armed */

	/* EPROBE: EPID 1 is BEGIN's, one 8-byte record after the 12-byte header */
	memset(&epd, 0, sizeof(epd));
	epd.ep.dtepd_epid = 1;
	epd.ep.dtepd_nrecs = 4;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), 0);
	CHECK_EQ(epd.ep.dtepd_probeid, 1);
	CHECK_EQ(epd.ep.dtepd_uarg, 0xbe);
	CHECK_EQ(epd.ep.dtepd_size, 24);
	CHECK_EQ(epd.ep.dtepd_nrecs, 1);
	CHECK_EQ(recs(&epd.ep)[0].dtrd_action, DTRACEACT_DIFEXPR);
	CHECK_EQ(recs(&epd.ep)[0].dtrd_size, 8);
	CHECK_EQ(recs(&epd.ep)[0].dtrd_offset, 16);
	CHECK_EQ(recs(&epd.ep)[0].dtrd_alignment, 8);

	/* EPID 2: arg0 at 16 (8 bytes), arg1 at 24 (4 bytes), 28 bytes in all */
	memset(&epd, 0, sizeof(epd));
	epd.ep.dtepd_epid = 2;
	epd.ep.dtepd_nrecs = 4;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), 0);
	CHECK_EQ(epd.ep.dtepd_probeid, fire);
	CHECK_EQ(epd.ep.dtepd_size, 28);
	CHECK_EQ(epd.ep.dtepd_nrecs, 2);
	CHECK_EQ(recs(&epd.ep)[0].dtrd_offset, 16);
	CHECK_EQ(recs(&epd.ep)[1].dtrd_offset, 24);
	CHECK_EQ(recs(&epd.ep)[1].dtrd_size, 4);
	CHECK_EQ(recs(&epd.ep)[1].dtrd_alignment, 4);

	/* an unknown EPID */
	epd.ep.dtepd_epid = 99;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), DTRACE_EINVAL);

	/* GO: BEGIN fires on this CPU (1) */
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(cpu, 1);
	/* a second GO is refused, as is a late ENABLE */
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), DTRACE_EBUSY);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), DTRACE_EBUSY);

	/* the provider's probe fires twice on CPU 0 */
	testport_set_cpu(0);
	testport_set_time(7000);
	dtrace_probe(fire, 0xdeadbeefcafeULL, 0x77777777aaaaaaaaULL, 0, 0, 0);
	testport_set_time(7100);
	dtrace_probe(fire, 1, 2, 0, 0, 0);
	testport_set_cpu(1);

	memset(&desc, 0, sizeof(desc));
	desc.dtbd_size = sizeof(data);
	desc.dtbd_cpu = 1;
	desc.dtbd_data = data;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL), 0);
	CHECK_EQ(desc.dtbd_size, 24);
	CHECK_EQ(desc.dtbd_drops, 0);
	CHECK_EQ(rd32(data), 1);			     /* EPID */
	CHECK_EQ(rd32(data + 4), 0);			     /* timestamp high */
	CHECK_EQ(rd32(data + 8), 5000);		     /* timestamp low */
	CHECK_EQ(rd64(data + 16), 0x1122334455667788ULL); /* the traced value */

	memset(&desc, 0, sizeof(desc));
	desc.dtbd_size = sizeof(data);
	desc.dtbd_cpu = 0;
	desc.dtbd_data = data;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL), 0);
	/* record at 0 (28 bytes), EPIDNONE padding to 32, record at 32 */
	CHECK_EQ(desc.dtbd_size, 60);
	CHECK_EQ(rd32(data), 2);
	CHECK_EQ(rd32(data + 8), 7000);
	CHECK_EQ(rd64(data + 16), 0xdeadbeefcafeULL);
	CHECK_EQ(rd32(data + 24), 0xaaaaaaaau);
	CHECK_EQ(rd32(data + 28), DTRACE_EPIDNONE);
	CHECK_EQ(rd32(data + 32), 2);
	CHECK_EQ(rd32(data + 40), 7100);
	CHECK_EQ(rd64(data + 48), 1);
	CHECK_EQ(rd32(data + 56), 2);

	/* a snapshot right after the first finds the buffer empty */
	desc.dtbd_size = sizeof(data);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL), 0);
	CHECK_EQ(desc.dtbd_size, 0);

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	CHECK_EQ(cpu, 1);
	/* after STOP the probe records nothing */
	dtrace_probe(fire, 3, 4, 0, 0, 0);
	desc.dtbd_cpu = 1;
	desc.dtbd_size = sizeof(data);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL), 0);
	CHECK_EQ(desc.dtbd_size, 0);

	dtrace_state_close(st);
	CHECK_EQ(harness_disables, 1);
	dofb_fini(&b);
	harness_teardown(pid); /* aborts if the core leaked */
	return TEST_DONE();
}
