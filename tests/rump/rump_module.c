/*
 * tests/rump/rump_module.c: the NetBSD dtrace module in a real NetBSD
 * kernel (a rump kernel in this process).
 *
 * Boots the kernel with the module built in, then checks: the module's
 * MODULE_CMD_INIT ran and attached its device; /dev/dtrace/dtrace and
 * /dev/dtrace/helper open; every DTRACEIOC_* command, with NetBSD's number
 * and argument layout, reaches the core and answers as DTrace does (the
 * success paths of ENABLE, EPROBE, AGGDESC, FORMAT and the snapshots with
 * real programs are the dtrace command's, tests/rump/run_e2e_rump.sh);
 * fbt and kinst are not offered (a rump kernel has no breakpoint route);
 * the helper commands and an unknown command answer as documented; the
 * module refuses to unload while a consumer has it open, unloads, is gone
 * (open fails), loads again and works again, twice.
 *
 * Usage: rump_module LIBDIR COMPONENT.  Exits 77 (skipped) when they are
 * missing: the rump kernel lives outside the repository (../shared/rump).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtrace_abi.h"
#include "rump_host.h"
#include "bsd_ioctl.h"

#define NB_ENOENT 2
#define NB_ESRCH 3
#define NB_ENXIO 6
#define NB_EBUSY 16
#define NB_EINVAL 22
#define NB_ENOTTY 25
#define NB_EOPNOTSUPP 45

static int failures;

static void
check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

/* 0, or NetBSD's errno. */
static int
ioc(int fd, unsigned long cmd, void *arg)
{
	return dtrace_rump.ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

static void
control_operations(const char *pass)
{
	char what[160], fmt[64], dofroom[4096];
	dtrace_providerdesc_t pv;
	dtrace_probedesc_t pd;
	dtrace_argdesc_t ad;
	dtrace_conf_t conf;
	dtrace_status_t st;
	dtrace_fmtdesc_t fd_;
	dtrace_repldesc_t rd;
	dtrace_enable_io_t en;
	dtrace_bufdesc_t bd;
	union {
		void *p;
		char room[sizeof(dtrace_eprobedesc_t)];
	} pp;
	dtrace_eprobedesc_t ep;
	dtrace_aggdesc_t ag;
	dof_hdr_t *dof = (dof_hdr_t *)dofroom;
	int32_t cpu = -1;
	int fd, hfd, n, err;
	dtrace_id_t tick;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		snprintf(what, sizeof(what), __VA_ARGS__);                                         \
		check(cond, what);                                                                 \
	} while (0)

	fd = dtrace_rump.open("/dev/dtrace/dtrace", DTRACE_RUMP_O_RDWR);
	CHECK(fd >= 0, "%s: open /dev/dtrace/dtrace (errno %d)", pass, errno);
	hfd = dtrace_rump.open("/dev/dtrace/helper", DTRACE_RUMP_O_RDWR);
	CHECK(hfd >= 0, "%s: open /dev/dtrace/helper (errno %d)", pass, errno);
	if (fd < 0 || hfd < 0)
		return;

	memset(&conf, 0, sizeof(conf));
	CHECK(ioc(fd, DTRACEIOC_CONF, &conf) == 0 && conf.dtc_difversion != 0 &&
		      conf.dtc_difintregs == 8 && conf.dtc_diftupregs == 8,
	      "%s: CONF gives the DIF version and registers", pass);

	memset(&pv, 0, sizeof(pv));
	strcpy(pv.dtvd_name, "profile");
	CHECK(ioc(fd, DTRACEIOC_PROVIDER, &pv) == 0, "%s: PROVIDER profile", pass);
	strcpy(pv.dtvd_name, "syscall");
	CHECK(ioc(fd, DTRACEIOC_PROVIDER, &pv) == 0, "%s: PROVIDER syscall", pass);
	strcpy(pv.dtvd_name, "nosuch");
	CHECK(ioc(fd, DTRACEIOC_PROVIDER, &pv) == NB_ESRCH, "%s: PROVIDER nosuch is ESRCH", pass);
	/* a rump kernel has no trap(): no breakpoint reaches fbt or kinst,
	 * so neither is offered (port/netbsd/md_rump.c) */
	strcpy(pv.dtvd_name, "fbt");
	CHECK(ioc(fd, DTRACEIOC_PROVIDER, &pv) == NB_ESRCH, "%s: PROVIDER fbt is ESRCH", pass);
	strcpy(pv.dtvd_name, "kinst");
	CHECK(ioc(fd, DTRACEIOC_PROVIDER, &pv) == NB_ESRCH, "%s: PROVIDER kinst is ESRCH", pass);

	/* Walk every probe: BEGIN is 1, and profile's usual set. */
	n = 0;
	memset(&pd, 0, sizeof(pd));
	for (pd.dtpd_id = 1; (err = ioc(fd, DTRACEIOC_PROBES, &pd)) == 0; pd.dtpd_id++) {
		if (n == 0)
			CHECK(pd.dtpd_id == 1 && strcmp(pd.dtpd_provider, "dtrace") == 0 &&
				      strcmp(pd.dtpd_name, "BEGIN") == 0,
			      "%s: probe 1 is dtrace:::BEGIN", pass);
		n++;
		memset(pd.dtpd_provider, 0, sizeof(pd) - sizeof(pd.dtpd_id));
	}
	CHECK(err == NB_ESRCH && n >= 3 + 13, "%s: PROBES walks %d probes, then ESRCH (%d)", pass, n, err);

	memset(&pd, 0, sizeof(pd));
	strcpy(pd.dtpd_provider, "profile");
	strcpy(pd.dtpd_name, "tick-3s");
	CHECK(ioc(fd, DTRACEIOC_PROBEMATCH, &pd) == 0 && strcmp(pd.dtpd_name, "tick-3s") == 0,
	      "%s: PROBEMATCH makes profile:::tick-3s", pass);
	tick = pd.dtpd_id;

	memset(&ad, 0, sizeof(ad));
	ad.dtargd_id = tick;
	ad.dtargd_ndx = 0;
	CHECK(ioc(fd, DTRACEIOC_PROBEARG, &ad) == 0 && ad.dtargd_ndx == DTRACE_ARGNONE,
	      "%s: PROBEARG of a profile probe has no types", pass);

	CHECK(ioc(fd, DTRACEIOC_STATUS, &st) == NB_ENOENT, "%s: STATUS before GO is ENOENT", pass);

	memset(&fd_, 0, sizeof(fd_));
	fd_.dtfd_format = 1;
	fd_.dtfd_length = sizeof(fmt);
	fd_.dtfd_string = fmt;
	CHECK(ioc(fd, DTRACEIOC_FORMAT, &fd_) == NB_EINVAL, "%s: FORMAT of no format is EINVAL",
	      pass);

	memset(&ep, 0, sizeof(ep));
	ep.dtepd_epid = 12345;
	ep.dtepd_nrecs = 1;
	pp.p = &ep;
	CHECK(ioc(fd, DTRACEIOC_EPROBE, &pp) == NB_EINVAL, "%s: EPROBE of no EPID is EINVAL", pass);
	memset(&ag, 0, sizeof(ag));
	ag.dtagd_id = 12345;
	ag.dtagd_nrecs = 1;
	pp.p = &ag;
	CHECK(ioc(fd, DTRACEIOC_AGGDESC, &pp) == NB_EINVAL, "%s: AGGDESC of no aggregation is EINVAL",
	      pass);

	memset(dofroom, 0, sizeof(dofroom));
	dof->dofh_loadsz = sizeof(dofroom);
	pp.p = dof;
	CHECK(ioc(fd, DTRACEIOC_DOFGET, &pp) == 0 && memcmp(dofroom, "\x7f" "DOF", 4) == 0,
	      "%s: DOFGET gives a DOF image", pass);

	memset(&en, 0, sizeof(en));
	en.n_matched = -1;
	CHECK(ioc(fd, DTRACEIOC_ENABLE, &en) == 0 && en.n_matched == 0,
	      "%s: ENABLE without DOF rematches retained enablings", pass);
	en.dof = dofroom;
	memset(dofroom, 0, 64);
	CHECK(ioc(fd, DTRACEIOC_ENABLE, &en) == NB_EINVAL, "%s: ENABLE of a bad image is EINVAL",
	      pass);

	memset(&rd, 0, sizeof(rd));
	strcpy(rd.dtrpd_match.dtpd_provider, "nosuch");
	err = ioc(fd, DTRACEIOC_REPLICATE, &rd);
	CHECK(err == NB_ENOENT, "%s: REPLICATE of no probe is ENOENT (%d)", pass,
	      err);

	CHECK(ioc(fd, DTRACEIOC_GO, &cpu) == 0 && cpu >= 0 && cpu < dtrace_rump.ncpus,
	      "%s: GO runs BEGIN on a CPU (%d)", pass, cpu);
	CHECK(ioc(fd, DTRACEIOC_STATUS, &st) == 0 && !st.dtst_killed,
	      "%s: STATUS after GO", pass);
	memset(&bd, 0, sizeof(bd));
	bd.dtbd_cpu = 0;
	bd.dtbd_size = sizeof(dofroom);
	bd.dtbd_data = dofroom;
	pp.p = &bd;
	err = ioc(fd, DTRACEIOC_BUFSNAP, &pp);
	CHECK(err == 0 || err == NB_ENOENT, "%s: BUFSNAP of CPU 0 (%d)", pass, err);
	memset(&bd, 0, sizeof(bd));
	bd.dtbd_cpu = 0;
	bd.dtbd_size = sizeof(dofroom);
	bd.dtbd_data = dofroom;
	err = ioc(fd, DTRACEIOC_AGGSNAP, &pp);
	CHECK(err == 0 || err == NB_ENOENT, "%s: AGGSNAP of CPU 0 (%d)", pass, err);
	cpu = -1;
	CHECK(ioc(fd, DTRACEIOC_STOP, &cpu) == 0 && cpu >= 0 && cpu < dtrace_rump.ncpus,
	      "%s: STOP runs END on a CPU (%d)", pass, cpu);

	CHECK(ioc(fd, _IOR('x', 99, int), &n) == NB_ENOTTY, "%s: an unknown command is ENOTTY",
	      pass);
	CHECK(ioc(fd, DTRACEIOC_GO & ~0x40000000UL, &cpu) == NB_ENOTTY,
	      "%s: GO with the wrong direction is ENOTTY", pass);

	/* The helper device: NetBSD's numbers, no helper registry yet. */
	{
		struct {
			dof_helper_t h;
			int32_t pid, gen;
		} dh;
		dof_hdr_t hdr;
		int gen = 1;

		memset(&dh, 0, sizeof(dh));
		memset(&hdr, 0, sizeof(hdr));
		CHECK(ioc(hfd, _IOWR('z', 3, dh), &dh) == NB_EOPNOTSUPP,
		      "%s: helper ADDDOF is EOPNOTSUPP", pass);
		CHECK(ioc(hfd, _IOWR('z', 1, dof_hdr_t), &hdr) == NB_EOPNOTSUPP,
		      "%s: helper ADD is EOPNOTSUPP", pass);
		CHECK(ioc(hfd, _IOW('z', 2, int), &gen) == NB_ENOENT,
		      "%s: helper REMOVE of nothing is ENOENT", pass);
		CHECK(ioc(hfd, _IOW('z', 9, int), &gen) == NB_ENOTTY,
		      "%s: an unknown helper command is ENOTTY", pass);
	}

	CHECK(dtrace_rump_unload() != 0 && errno == NB_EBUSY,
	      "%s: unload refused while a consumer is open (errno %d)", pass, errno);
	CHECK(dtrace_rump.close(hfd) == 0 && dtrace_rump.close(fd) == 0, "%s: close", pass);
}

int
main(int argc, char **argv)
{
	char why[256];
	int fd;

	if (argc != 3 || access(argv[1], R_OK) != 0 || access(argv[2], R_OK) != 0) {
		fprintf(stderr, "skip: no rump kernel (%s)\n", argc > 1 ? argv[1] : "no path");
		return 77;
	}
	if (dtrace_rump_boot(argv[1], argv[2], 4, why, sizeof(why)) != 0) {
		printf("FAIL: boot: %s\n", why);
		return 1;
	}
	control_operations("boot");
	for (int pass = 1; pass <= 2; pass++) {
		char name[32];

		snprintf(name, sizeof(name), "reload %d", pass);
		check(dtrace_rump_unload() == 0, "modctl unload dtrace");
		fd = dtrace_rump.open("/dev/dtrace/dtrace", DTRACE_RUMP_O_RDWR);
		check(fd < 0 && errno == NB_ENXIO, "open after unload fails with ENXIO");
		check(dtrace_rump_load() == 0, "modctl load dtrace");
		control_operations(name);
	}
	if (failures != 0) {
		printf("FAIL: %d check(s) failed\n", failures);
		return 1;
	}
	printf("ok rump-module\n");
	return 0;
}
