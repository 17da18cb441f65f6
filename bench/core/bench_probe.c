/*
 * bench/core/bench_probe.c: nanoseconds per probe firing in the core.
 *
 * One provider probe is enabled with each program in turn (built by hand as
 * DOF, as the compiler would emit it), the state is started, and the probe
 * is fired in a tight loop on one CPU of the test port.  Buffers are drained
 * between timed rounds so that every firing records (no drops), and the
 * drain itself is not timed.  Prints one line per program, plus whether the
 * count() target (60 ns) is met; the exit status is always 0: this is a
 * measurement, not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dof_builder.h"
#include "nop_provider.h"

#define ROUND 100000
#define ROUNDS 20


static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef enum { P_EMPTY, P_COUNT, P_QUANTIZE, P_TRACE2 } program_t;

static void
build(dofb_t *b, program_t p)
{
	uint32_t pd, acts = DOF_SECIDX_NONE;
	dof_actdesc_t a[3];

	dofb_init(b);
	pd = dofb_probedesc(b, "bench", "", "", "fire");
	switch (p) {
	case P_EMPTY:
		break;
	case P_COUNT:
		/* @ = count(): the key is the aggregation variable's id */
		a[0] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(b, 1, 8), 0);
		a[1] = dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0);
		a[1].dofa_ntuple = 1;
		acts = dofb_actions(b, a, 2);
		break;
	case P_QUANTIZE:
		a[0] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(b, 1, 8), 0);
		a[1] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(b, DIF_VAR_ARG0, 8), 0);
		a[2] = dofb_act(DTRACEAGG_QUANTIZE, dofb_difo_var(b, DIF_VAR_ARG1, 8), 0);
		a[2].dofa_ntuple = 2;
		acts = dofb_actions(b, a, 3);
		break;
	case P_TRACE2:
		a[0] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(b, DIF_VAR_ARG0, 8), 0);
		a[1] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(b, DIF_VAR_ARG1, 8), 0);
		acts = dofb_actions(b, a, 2);
		break;
	}
	dofb_ecbdesc(b, pd, DOF_SECIDX_NONE, acts, 0);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 8 << 20},
					    {DTRACEOPT_AGGSIZE, 1 << 20}};
		dofb_options(b, opts, 2);
	}
	dofb_finish(b);
}

static void
drain(dtrace_state_t *st, char *data, size_t size)
{
	dtrace_bufdesc_t d;

	memset(&d, 0, sizeof(d));
	d.dtbd_cpu = 0;
	d.dtbd_data = data;
	d.dtbd_size = size;
	(void)dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &d, NULL);
	d.dtbd_size = size;
	(void)dtrace_ctl(st, DTRACE_CTL_AGGSNAP, &d, NULL);
}

static double
run(dtrace_id_t id, program_t p, uint64_t *dropsp)
{
	static char data[8 << 20];
	dtrace_state_t *st;
	dofb_t b;
	int rv;
	int32_t cpu;
	uint64_t total = 0, best = UINT64_MAX;
	dtrace_status_t stat;
	dtrace_bufdesc_t d;

	build(&b, p);
	if (dtrace_state_open(DTRACE_PRIV_ALL, 0, &st) != 0 ||
	    dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv) != 0 || rv != 1 ||
	    dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL) != 0) {
		fprintf(stderr, "bench_probe: cannot enable program %d: %s\n", (int)p,
			dtrace_state_errmsg(st) ? dtrace_state_errmsg(st) : "?");
		exit(1);
	}
	*dropsp = 0;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0, t1;

		drain(st, data, sizeof(data));
		t0 = now_ns();
		for (uint64_t i = 0; i < ROUND; i++)
			dtrace_probe(id, i, i * 7 + 1, 0, 0, 0);
		t1 = now_ns();
		total += t1 - t0;
		if (t1 - t0 < best)
			best = t1 - t0;
		memset(&d, 0, sizeof(d));
		d.dtbd_data = data;
		d.dtbd_size = sizeof(data);
		if (dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &d, NULL) == 0)
			*dropsp += d.dtbd_drops;
	}
	(void)dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL);
	(void)dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL);
	dtrace_state_close(st);
	dofb_fini(&b);
	(void)total;
	return (double)best / ROUND;
}

int
main(void)
{
	static const struct {
		program_t p;
		const char *name;
	} progs[] = {
		{P_EMPTY, "empty ECB (header only)"},
		{P_COUNT, "@ = count()"},
		{P_QUANTIZE, "@[arg0] = quantize(arg1)"},
		{P_TRACE2, "trace(arg0); trace(arg1)"},
	};
	dtrace_provider_id_t prov;
	dtrace_id_t id;
	double count_ns = 0;

	if (nop_start(1) != 0 || nop_register("bench", DTRACE_PRIV_USER, &prov) != 0)
		return 1;
	id = dtrace_probe_create(prov, "m", "f", "fire", 0, NULL);

	printf("ns per probe firing (best of %d rounds of %d, test port, 1 CPU)\n", ROUNDS,
	       ROUND);
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		uint64_t drops;
		double ns = run(id, progs[i].p, &drops);

		printf("  %-28s %8.1f ns%s\n", progs[i].name, ns,
		       drops != 0 ? "  (with drops)" : "");
		if (progs[i].p == P_COUNT)
			count_ns = ns;
	}
	printf("count() target 60 ns: %s\n", count_ns <= 60.0 ? "met" : "NOT met");

	dtrace_unregister(prov);
	nop_stop();
	return 0;
}
