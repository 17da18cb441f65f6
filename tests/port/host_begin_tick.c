/*
 * tests/port/host_begin_tick.c: the core hosted by the Linux port, end to
 * end without a compiler.
 *
 * dtrace_linux_host_init() brings the host up (twice: it is idempotent);
 * PROBEMATCH, as a compiler checking its probe descriptions does, makes the
 * profile provider create profile:::tick-10ms and profile:::profile-100 from
 * their names (and not profile:::tick-1x); a hand-built DOF enables BEGIN
 * { trace(constant) }, tick-10ms { trace(arg1) } and profile-100
 * { trace(arg1) }; GO fires BEGIN once on
 * the consumer's slot; after ~2 s, STOP and a BUFSNAP of every slot find
 * the tick records on one slot and the profile records spread over one slot
 * per online CPU, each count in
 * a range wide enough for a loaded machine: at least a tenth of the ~200
 * expected (the timers may be starved, never early) and never more than the
 * interval allows (overruns are coalesced, not replayed).  Rates themselves
 * are checked by tests/e2e/host from mean intervals.  Each firing carries
 * the interrupted user PC; host_fini refuses while the state is open.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dof_builder.h"
#include "dtrace.h"
#include "host.h"
#include "linux_impl.h"
#include "port_test.h"

#define MAXEPID 4

static uint32_t
rd32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
rd64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* PROBEMATCH profile:::name; returns the matched probe's id or 0. */
static dtrace_id_t
probematch(dtrace_state_t *st, const char *name)
{
	dtrace_probedesc_t pd;

	memset(&pd, 0, sizeof(pd));
	strcpy(pd.dtpd_provider, "profile");
	strcpy(pd.dtpd_name, name);
	if (dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &pd, NULL) != 0)
		return 0;
	return strcmp(pd.dtpd_name, name) == 0 ? pd.dtpd_id : 0;
}

int
main(void)
{
	static char data[1 << 20];
	uint32_t size[MAXEPID + 1] = {0}, nslots, s, epid, off;
	int count[MAXEPID + 1] = {0}, slots_used[MAXEPID + 1] = {0}, zero_pc = 0;
	int begin_slot = -1, rv = -1, err, ncpu;
	int32_t cpu = -1, go_cpu;
	dtrace_bufdesc_t desc;
	dtrace_state_t *st;
	struct timespec run = {2, 0};
	dtrace_eprobedesc_t ep;
	dofb_t b;

	CHECK(dtrace_linux_host_init() == 0, "host init");
	CHECK(dtrace_linux_host_init() == 0, "host init again");
	nslots = dtrace_port_ncpus();
	CHECK(nslots >= 1, "slots %u", nslots);
	CHECK(dtrace_state_open(DTRACE_PRIV_ALL, (uint32_t)getuid(), &st) == 0, "state open");

	CHECK(probematch(st, "tick-10ms") > 3, "tick-10ms created on demand");
	CHECK(probematch(st, "profile-100") > 3, "profile-100 created on demand");
	CHECK(probematch(st, "tick-1x") == 0, "no probe for a bad unit");
	CHECK(probematch(st, "profile-997") > 3, "a default probe exists");

	dofb_init(&b);
	{
		uint32_t pd = dofb_probedesc(&b, "dtrace", "", "", "BEGIN");
		dof_actdesc_t a =
			dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 0xb16b00b5ULL, 8), 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
	}
	{
		uint32_t pd = dofb_probedesc(&b, "profile", "", "", "tick-10ms");
		dof_actdesc_t a =
			dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
	}
	{
		uint32_t pd = dofb_probedesc(&b, "profile", "", "", "profile-100");
		dof_actdesc_t a =
			dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 256 * 1024}};
		dofb_options(&b, opts, 1);
	}
	dofb_finish(&b);

	err = dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv);
	CHECK(err == 0 && rv == 3, "enable: err %d, %d probes matched", err, rv);
	for (epid = 1; epid <= 3; epid++) {
		memset(&ep, 0, sizeof(ep));
		ep.dtepd_epid = epid;
		ep.dtepd_nrecs = 1;
		CHECK(dtrace_ctl(st, DTRACE_CTL_EPROBE, &ep, NULL) == 0, "eprobe %u", epid);
		size[epid] = ep.dtepd_size;
		CHECK(size[epid] >= 16, "epid %u size %u", epid, size[epid]);
	}

	CHECK(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL) == 0, "go");
	CHECK(cpu >= 0 && (uint32_t)cpu < nslots, "BEGIN on slot %d", cpu);
	go_cpu = cpu;
	nanosleep(&run, NULL);
	/* STOP answers END's slot, which may differ from GO's: the thread can move */
	CHECK(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL) == 0, "stop");

	for (s = 0; s < nslots; s++) {
		int seen[MAXEPID + 1] = {0};

		memset(&desc, 0, sizeof(desc));
		desc.dtbd_size = sizeof(data);
		desc.dtbd_cpu = s;
		desc.dtbd_data = data;
		CHECK(dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL) == 0, "bufsnap %u", s);
		CHECK(desc.dtbd_drops == 0, "slot %u drops %llu", s,
		      (unsigned long long)desc.dtbd_drops);
		for (off = 0; off + 4 <= desc.dtbd_size;) {
			epid = rd32(data + off);
			if (epid == DTRACE_EPIDNONE) {
				off += 4;
				continue;
			}
			if (epid < 1 || epid > 3 || off + size[epid] > desc.dtbd_size) {
				CHECK(0, "slot %u: bad record %u at %u", s, epid, off);
				break;
			}
			count[epid]++;
			seen[epid] = 1;
			if (epid == 1) {
				begin_slot = (int)s;
				CHECK(rd64(data + off + 16) == 0xb16b00b5ULL, "BEGIN's value");
			} else if (rd64(data + off + 16) == 0) {
				zero_pc++;
			}
			off += size[epid];
		}
		for (epid = 1; epid <= 3; epid++)
			slots_used[epid] += seen[epid];
	}
	ncpu = (int)linux_cputimer_ncpus();
	CHECK(count[1] == 1 && begin_slot == go_cpu, "BEGIN fired %d times, on slot %d (GO said %d)",
	      count[1], begin_slot, go_cpu);
	CHECK(count[2] >= 20 && count[2] <= 225 && slots_used[2] == 1,
	      "tick-10ms: %d firings on %d slots in 2 s", count[2], slots_used[2]);
	CHECK(count[3] >= 20 * ncpu && count[3] <= 225 * ncpu && slots_used[3] == ncpu,
	      "profile-100: %d firings on %d slots, %d CPUs", count[3], slots_used[3], ncpu);
	CHECK(zero_pc == 0, "%d firings without a user PC", zero_pc);

	CHECK(dtrace_linux_host_fini() == DTRACE_EBUSY, "fini refused while a state is open");
	dtrace_state_close(st);
	dofb_fini(&b);
	CHECK(dtrace_linux_host_fini() == 0, "host fini");
	TEST_DONE();
}
