/*
 * tests/rump/rump_deadman.c: the deadman, in a real NetBSD kernel.
 *
 * A consumer makes and enables profile:::tick-100ms { trace(arg0) } through the
 * module's ioctls (a DOF image built by hand), starts tracing and asks for
 * STATUS: alive, and the probe fires (records in a snapshot).  It keeps
 * asking for five seconds and stays alive.  Then it stops asking: after 30
 * seconds the core's deadman timer (a kernel thread of the module) stops
 * vouching for it, and 10 seconds later the firing probe kills it, which the
 * next STATUS reports.  The timers, cross-calls and probe firings are the
 * kernel's own threads on its virtual CPUs.
 *
 * Usage: rump_deadman LIBDIR COMPONENT; exits 77 (skipped) without them.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "dof_builder.h"
#include "rump_host.h"
#include "bsd_ioctl.h"

static int failures;

static void
check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

static dtrace_status_t
status(int fd)
{
	dtrace_status_t st;

	memset(&st, 0, sizeof(st));
	check(dtrace_rump.ioctl(fd, DTRACEIOC_STATUS, &st) == 0, "STATUS");
	return st;
}

int
main(int argc, char **argv)
{
	static char data[65536];
	dtrace_enable_io_t en;
	dtrace_bufdesc_t bd;
	uint64_t snapped = 0;
	char why[256];
	int32_t cpu;
	dofb_t b;
	int fd;

	if (argc != 3 || access(argv[1], R_OK) != 0 || access(argv[2], R_OK) != 0) {
		fprintf(stderr, "skip: no rump kernel (%s)\n", argc > 1 ? argv[1] : "no path");
		return 77;
	}
	if (dtrace_rump_boot(argv[1], argv[2], 2, why, sizeof(why)) != 0) {
		printf("FAIL: boot: %s\n", why);
		return 1;
	}
	fd = dtrace_rump.open("/dev/dtrace/dtrace", DTRACE_RUMP_O_RDWR);
	check(fd >= 0, "open /dev/dtrace/dtrace");

	dofb_init(&b);
	{
		dof_actdesc_t a = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, sizeof(data) / 2}};

		dofb_ecbdesc(&b, dofb_probedesc(&b, "profile", "", "", "tick-100ms"),
			     DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
		dofb_options(&b, opts, 1);
	}
	/* As a consumer does: the name first, which makes the probe. */
	{
		dtrace_probedesc_t pd;

		memset(&pd, 0, sizeof(pd));
		strcpy(pd.dtpd_provider, "profile");
		strcpy(pd.dtpd_name, "tick-100ms");
		check(dtrace_rump.ioctl(fd, DTRACEIOC_PROBEMATCH, &pd) == 0, "PROBEMATCH tick-100ms");
	}
	memset(&en, 0, sizeof(en));
	en.dof = dofb_finish(&b);
	check(dtrace_rump.ioctl(fd, DTRACEIOC_ENABLE, &en) == 0 && en.n_matched == 1,
	      "ENABLE profile:::tick-100ms");
	check(dtrace_rump.ioctl(fd, DTRACEIOC_GO, &cpu) == 0, "GO");

	for (int i = 0; i < 5; i++) {
		check(!status(fd).dtst_killed, "alive while asking for STATUS");
		sleep(1);
	}
	/* The snapshot holds the firings so far. */
	for (int c = 0; c < dtrace_rump.ncpus; c++) {
		void *p = &bd;

		memset(&bd, 0, sizeof(bd));
		bd.dtbd_cpu = (uint32_t)c;
		bd.dtbd_size = sizeof(data);
		bd.dtbd_data = data;
		if (dtrace_rump.ioctl(fd, DTRACEIOC_BUFSNAP, &p) == 0)
			snapped += bd.dtbd_size;
	}
	check(snapped >= 10 * 24, "tick-100ms fired for five seconds");

	sleep(42); /* no STATUS: 30 s to be forgotten, 10 s more to be killed */
	check(status(fd).dtst_killed, "killed after 40 s without STATUS");
	check(dtrace_rump.close(fd) == 0, "close");
	dofb_fini(&b);
	if (failures != 0) {
		printf("FAIL: %d check(s) failed\n", failures);
		return 1;
	}
	printf("ok rump-deadman\n");
	return 0;
}
