/*
 * dtrace_ctl_ioctl(), the marshaller every kernel's ioctl entry point calls,
 * driven as a kernel would drive it, over a fake consumer address space.
 *
 * The consumer's memory is a static array at a made-up base address that is
 * never a valid pointer in this process: if the marshaller ever dereferenced
 * a consumer address instead of copying through dtrace_uaccess_t, the test
 * would crash.  The fake copyin/copyout refuse anything outside the array
 * (EFAULT) and can fail the n-th copy on demand.
 *
 * Checked for both conventions (UADDR: the ioctl argument is the consumer's
 * address of the structure, illumos; SIZED: it is the kernel's copy of the
 * payload, which for BUFSNAP, AGGSNAP, EPROBE, AGGDESC and DOFGET holds the
 * structure's address and for ENABLE a dtrace_enable_io_t, FreeBSD and
 * NetBSD): every control operation end to end (ENABLE of a program with a
 * printf and an aggregation, GO, snapshots, EPROBE/AGGDESC record arrays cut
 * to the consumer's room, FORMAT, DOFGET, REPLICATE, STATUS, STOP, ...); a
 * bad or NULL consumer address in each place, and a fault at every single
 * copy of every operation, each failing with EFAULT and leaking nothing;
 * DOF whose header claims more than the core's limit (E2BIG, no allocation
 * of that size), less than a header (EINVAL), or a header changed between
 * the two copies; unknown operations.
 */
#include "core_harness.h"

#define UBASE ((uintptr_t)0x5a5a000000000000ull) /* never a real pointer here */
#define USIZE (1u << 18)

static unsigned char uspace[USIZE];
static size_t utop;
static int copies, fail_at; /* fail the fail_at-th copy (0: never) */
static size_t largest_copyin;

static void *
uptr(uintptr_t u)
{
	return uspace + (u - UBASE);
}

static uintptr_t
ualloc(size_t size)
{
	uintptr_t u = UBASE + utop;

	utop = (utop + size + 15) & ~(size_t)15;
	if (utop > USIZE)
		abort();
	memset(uptr(u), 0, size);
	return u;
}

static bool
urange(uintptr_t u, size_t len)
{
	return u >= UBASE && len <= USIZE && u - UBASE <= USIZE - len;
}

static int
fake_copyin(void *ctx, uintptr_t usrc, void *kdst, size_t len)
{
	CHECK(ctx == &copies);
	if (++copies == fail_at || !urange(usrc, len))
		return 14;
	if (len > largest_copyin)
		largest_copyin = len;
	memcpy(kdst, uptr(usrc), len);
	return 0;
}

static int
fake_copyout(void *ctx, const void *ksrc, uintptr_t udst, size_t len)
{
	CHECK(ctx == &copies);
	if (++copies == fail_at || !urange(udst, len))
		return 14;
	memcpy(uptr(udst), ksrc, len);
	return 0;
}

static const dtrace_uaccess_t ua = {fake_copyin, fake_copyout, &copies};

/* One ioctl as the kernel delivers it for ABI `abi`: for SIZED, `payload`
 * is the kernel's copy; for UADDR, `u` is the consumer's address. */
static int
io_sized(dtrace_state_t *st, dtrace_ctl_t cmd, void *payload, int *rv)
{
	return dtrace_ctl_ioctl(st, cmd, DTRACE_IOCTL_SIZED, payload, &ua, rv);
}

static int
io_uaddr(dtrace_state_t *st, dtrace_ctl_t cmd, uintptr_t u, int *rv)
{
	return dtrace_ctl_ioctl(st, cmd, DTRACE_IOCTL_UADDR, (void *)u, &ua, rv);
}

/* For the operations whose payload is the structure's address. */
static int
io_byref(dtrace_state_t *st, dtrace_ctl_t cmd, dtrace_ioctl_abi_t abi, uintptr_t u, int *rv)
{
	void *p = (void *)u;

	return abi == DTRACE_IOCTL_SIZED ? io_sized(st, cmd, &p, rv) : io_uaddr(st, cmd, u, rv);
}

static const char fmtstr[] = "%d items\n";

/* printf("%d items\n", arg0); trace(arg0) and @[1] = count() on test:::fire. */
static uintptr_t
program(size_t *sizep)
{
	dofb_t b;
	const char *strs[] = {fmtstr, NULL};
	uint32_t off, tab;
	dof_hdr_t *img;
	uintptr_t u;

	dofb_init(&b);
	tab = dofb_strtab(&b, strs, &off);
	{
		dof_actdesc_t a[2] = {dofb_act(DTRACEACT_PRINTF, dofb_difo_var(&b, DIF_VAR_ARG0, 8),
					       off),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8))};
		dof_actdesc_t g[2] = {dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 1, 8), 0),
				      dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0)};

		a[0].dofa_strtab = tab;
		g[1].dofa_ntuple = 1;
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, 2), 7);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, g, 2), 8);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}, {DTRACEOPT_AGGSIZE, 4096}};
		dofb_options(&b, opts, 2);
	}
	img = dofb_finish(&b);
	*sizep = img->dofh_loadsz;
	u = ualloc(*sizep);
	memcpy(uptr(u), img, *sizep);
	dofb_fini(&b);
	return u;
}

static int
enable(dtrace_state_t *st, dtrace_ioctl_abi_t abi, uintptr_t udof, int *matched)
{
	int rv = -1, err;

	if (abi == DTRACE_IOCTL_SIZED) {
		dtrace_enable_io_t eio;

		memset(&eio, 0, sizeof(eio));
		eio.dof = (void *)udof;
		eio.n_matched = -1;
		err = io_sized(st, DTRACE_CTL_ENABLE, &eio, &rv);
		if (err == 0)
			CHECK_EQ(eio.n_matched, rv);
	} else {
		err = io_uaddr(st, DTRACE_CTL_ENABLE, udof, &rv);
	}
	*matched = rv;
	return err;
}

/* GO or STOP; returns the CPU. */
static int32_t
go_stop(dtrace_state_t *st, dtrace_ctl_t cmd, dtrace_ioctl_abi_t abi)
{
	int32_t cpu = -7;

	if (abi == DTRACE_IOCTL_SIZED) {
		CHECK_EQ(io_sized(st, cmd, &cpu, NULL), 0);
	} else {
		uintptr_t u = ualloc(sizeof(cpu));

		CHECK_EQ(io_uaddr(st, cmd, u, NULL), 0);
		memcpy(&cpu, uptr(u), sizeof(cpu));
	}
	return cpu;
}

static void
test_end_to_end(dtrace_id_t fire, dtrace_ioctl_abi_t abi)
{
	dtrace_state_t *st;
	size_t dofsize;
	uintptr_t udof = program(&dofsize), u, ud;
	dtrace_bufdesc_t *bd;
	dtrace_eprobedesc_t *ep;
	dtrace_aggdesc_t *ag;
	dtrace_fmtdesc_t fd, *ufd;
	dtrace_recdesc_t *rec;
	dtrace_epid_t epid;
	dof_hdr_t *hdr;
	int matched;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK_EQ(enable(st, abi, udof, &matched), 0);
	CHECK_EQ(matched, 2);
	CHECK_EQ(go_stop(st, DTRACE_CTL_GO, abi), 0);
	dtrace_probe(fire, 42, 0, 0, 0, 0);

	/* BUFSNAP: the data lands at dtbd_data in the consumer's memory */
	u = ualloc(sizeof(*bd));
	ud = ualloc(4096);
	bd = uptr(u);
	bd->dtbd_cpu = 0;
	bd->dtbd_size = 4096;
	bd->dtbd_data = (char *)ud;
	CHECK_EQ(io_byref(st, DTRACE_CTL_BUFSNAP, abi, u, NULL), 0);
	CHECK_EQ(bd->dtbd_size, 32); /* header, printf's argument, trace(arg0) */
	CHECK_EQ(rd64((char *)uptr(ud) + 16), 42);
	CHECK_EQ(rd64((char *)uptr(ud) + 24), 42);
	epid = rd32(uptr(ud));
	CHECK(epid != DTRACE_EPIDNONE);

	/* EPROBE: room for 5 records, 2 exist; then room for 1 */
	u = ualloc(sizeof(*ep) + 4 * sizeof(dtrace_recdesc_t));
	ep = uptr(u);
	memset(ep, 0xab, sizeof(*ep) + 4 * sizeof(dtrace_recdesc_t));
	ep->dtepd_epid = epid;
	ep->dtepd_nrecs = 5;
	CHECK_EQ(io_byref(st, DTRACE_CTL_EPROBE, abi, u, NULL), 0);
	CHECK_EQ(ep->dtepd_nrecs, 2);
	CHECK_EQ(ep->dtepd_uarg, 7);
	CHECK_EQ(ep->dtepd_probeid, fire);
	rec = (dtrace_recdesc_t *)(void *)((char *)ep + offsetof(dtrace_eprobedesc_t, dtepd_rec));
	CHECK_EQ(rec[0].dtrd_action, DTRACEACT_PRINTF);
	CHECK_EQ(rec[1].dtrd_action, DTRACEACT_DIFEXPR);
	CHECK_EQ(*((unsigned char *)&rec[2]), 0xab); /* nothing beyond what exists */
	ep->dtepd_nrecs = 1;
	memset(&rec[1], 0xcd, sizeof(rec[1]));
	CHECK_EQ(io_byref(st, DTRACE_CTL_EPROBE, abi, u, NULL), 0);
	CHECK_EQ(ep->dtepd_nrecs, 2);
	CHECK_EQ(*((unsigned char *)&rec[1]), 0xcd); /* only the room given */
	ep->dtepd_nrecs = -3;
	CHECK_EQ(io_byref(st, DTRACE_CTL_EPROBE, abi, u, NULL), 0);
	CHECK_EQ(ep->dtepd_nrecs, 2);
	ep->dtepd_epid = 999;
	CHECK_EQ(io_byref(st, DTRACE_CTL_EPROBE, abi, u, NULL), DTRACE_EINVAL);

	/* FORMAT: the string goes to dtfd_string; too little room asks for more */
	memset(&fd, 0, sizeof(fd));
	fd.dtfd_format = rec[0].dtrd_format;
	fd.dtfd_length = 4;
	fd.dtfd_string = (char *)ualloc(64);
	if (abi == DTRACE_IOCTL_SIZED) {
		ufd = &fd;
		CHECK_EQ(io_sized(st, DTRACE_CTL_FORMAT, ufd, NULL), 0);
	} else {
		u = ualloc(sizeof(fd));
		ufd = uptr(u);
		*ufd = fd;
		CHECK_EQ(io_uaddr(st, DTRACE_CTL_FORMAT, u, NULL), 0);
	}
	CHECK_EQ(ufd->dtfd_length, sizeof(fmtstr));
	CHECK_EQ(*(char *)uptr((uintptr_t)ufd->dtfd_string), 0);
	ufd->dtfd_length = 64;
	CHECK_EQ(abi == DTRACE_IOCTL_SIZED ? io_sized(st, DTRACE_CTL_FORMAT, ufd, NULL)
					  : io_uaddr(st, DTRACE_CTL_FORMAT, u, NULL),
		 0);
	CHECK_STREQ(uptr((uintptr_t)ufd->dtfd_string), fmtstr);

	/* AGGSNAP and AGGDESC */
	u = ualloc(sizeof(*bd));
	ud = ualloc(4096);
	bd = uptr(u);
	bd->dtbd_size = 4096;
	bd->dtbd_data = (char *)ud;
	CHECK_EQ(io_byref(st, DTRACE_CTL_AGGSNAP, abi, u, NULL), 0);
	CHECK_EQ(bd->dtbd_size, 24);
	CHECK_EQ(rd64((char *)uptr(ud) + 16), 1); /* count() */
	u = ualloc(sizeof(*ag) + 3 * sizeof(dtrace_recdesc_t));
	ag = uptr(u);
	ag->dtagd_id = rd32(uptr(ud));
	ag->dtagd_nrecs = 4;
	CHECK_EQ(io_byref(st, DTRACE_CTL_AGGDESC, abi, u, NULL), 0);
	CHECK_EQ(ag->dtagd_nrecs, 2);
	rec = (dtrace_recdesc_t *)(void *)((char *)ag + offsetof(dtrace_aggdesc_t, dtagd_rec));
	CHECK_EQ(rec[1].dtrd_action, DTRACEAGG_COUNT);

	/* DOFGET: the options image, cut to the room the header names */
	u = ualloc(4096);
	hdr = uptr(u);
	hdr->dofh_loadsz = 4096;
	CHECK_EQ(io_byref(st, DTRACE_CTL_DOFGET, abi, u, NULL), 0);
	CHECK_EQ(hdr->dofh_secnum, 1);
	CHECK(hdr->dofh_loadsz > sizeof(*hdr) && hdr->dofh_loadsz < 4096);
	memset(hdr, 0xee, 256);
	hdr->dofh_loadsz = sizeof(*hdr);
	CHECK_EQ(io_byref(st, DTRACE_CTL_DOFGET, abi, u, NULL), 0);
	CHECK_EQ(hdr->dofh_secnum, 1);
	CHECK_EQ(*((unsigned char *)hdr + sizeof(*hdr)), 0xee);

	/* the fixed structures: STATUS, CONF, PROBEARG, PROBES, PROBEMATCH,
	 * PROVIDER, REPLICATE */
	{
		dtrace_status_t stt;
		dtrace_conf_t conf;
		dtrace_argdesc_t ad;
		dtrace_probedesc_t pd, pm;
		dtrace_providerdesc_t pvd;
		dtrace_repldesc_t rd;
		struct {
			dtrace_ctl_t cmd;
			void *k;
			size_t size;
			int err;
		} fixed[] = {
			{DTRACE_CTL_STATUS, &stt, sizeof(stt), 0},
			{DTRACE_CTL_CONF, &conf, sizeof(conf), 0},
			{DTRACE_CTL_PROBEARG, &ad, sizeof(ad), 0},
			{DTRACE_CTL_PROBES, &pd, sizeof(pd), 0},
			{DTRACE_CTL_PROBEMATCH, &pm, sizeof(pm), 0},
			{DTRACE_CTL_PROVIDER, &pvd, sizeof(pvd), 0},
			{DTRACE_CTL_REPLICATE, &rd, sizeof(rd), 0},
		};

		memset(&ad, 0, sizeof(ad));
		ad.dtargd_id = fire;
		ad.dtargd_ndx = 1;
		memset(&pd, 0, sizeof(pd));
		memset(&pm, 0, sizeof(pm));
		strcpy(pm.dtpd_name, "fire");
		memset(&pvd, 0, sizeof(pvd));
		strcpy(pvd.dtvd_name, "test");
		memset(&rd, 0, sizeof(rd));
		strcpy(rd.dtrpd_match.dtpd_provider, "test");
		strcpy(rd.dtrpd_match.dtpd_name, "fire");
		strcpy(rd.dtrpd_create.dtpd_provider, "test");
		strcpy(rd.dtrpd_create.dtpd_name, "other");
		memset(&stt, 0x55, sizeof(stt));
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
			if (abi == DTRACE_IOCTL_SIZED) {
				CHECK_EQ(io_sized(st, fixed[i].cmd, fixed[i].k, NULL), fixed[i].err);
			} else {
				u = ualloc(fixed[i].size);
				memcpy(uptr(u), fixed[i].k, fixed[i].size);
				CHECK_EQ(io_uaddr(st, fixed[i].cmd, u, NULL), fixed[i].err);
				memcpy(fixed[i].k, uptr(u), fixed[i].size);
			}
		}
		CHECK_EQ(stt.dtst_errors, 0);
		CHECK_EQ(stt.dtst_killed, 0);
		CHECK_EQ(conf.dtc_difversion, DIF_VERSION);
		CHECK_STREQ(ad.dtargd_native, "char *");
		CHECK_EQ(pd.dtpd_id, 1); /* PROBES from the start: dtrace:::BEGIN */
		CHECK_STREQ(pd.dtpd_provider, "dtrace");
		CHECK_EQ(pm.dtpd_id, fire);
		CHECK_STREQ(pm.dtpd_provider, "test");
		CHECK_EQ(pvd.dtvd_attr.dtpa_provider.dtat_class, DTRACE_CLASS_COMMON);
	}

	CHECK_EQ(go_stop(st, DTRACE_CTL_STOP, abi), 0);
	dtrace_state_close(st);
}

/*
 * Every copy the marshaller makes for an operation, failed in turn: the
 * operation fails with EFAULT and the core leaks nothing (nop_stop checks).
 * `run` performs the operation once from scratch and returns its error.
 */
typedef int (*op_fn_t)(dtrace_state_t *st, dtrace_ioctl_abi_t abi);

static int
op_enable(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	size_t size;
	int matched;

	return enable(st, abi, program(&size), &matched);
}

static int
op_snap(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	uintptr_t u = ualloc(sizeof(dtrace_bufdesc_t));
	dtrace_bufdesc_t *bd = uptr(u);

	bd->dtbd_size = 4096;
	bd->dtbd_data = (char *)ualloc(4096);
	return io_byref(st, DTRACE_CTL_AGGSNAP, abi, u, NULL);
}

static int
op_aggdesc(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	uintptr_t u = ualloc(sizeof(dtrace_aggdesc_t) + sizeof(dtrace_recdesc_t));
	dtrace_aggdesc_t *ag = uptr(u);

	ag->dtagd_id = 1;
	ag->dtagd_nrecs = 2;
	return io_byref(st, DTRACE_CTL_AGGDESC, abi, u, NULL);
}

static int
op_dofget(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	uintptr_t u = ualloc(2048);

	((dof_hdr_t *)uptr(u))->dofh_loadsz = 2048;
	return io_byref(st, DTRACE_CTL_DOFGET, abi, u, NULL);
}

static int
op_status(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	dtrace_status_t stt;

	if (abi == DTRACE_IOCTL_SIZED)
		return io_sized(st, DTRACE_CTL_STATUS, &stt, NULL);
	return io_uaddr(st, DTRACE_CTL_STATUS, ualloc(sizeof(stt)), NULL);
}

static int
op_format(dtrace_state_t *st, dtrace_ioctl_abi_t abi)
{
	dtrace_fmtdesc_t fd;
	uintptr_t u;

	memset(&fd, 0, sizeof(fd));
	fd.dtfd_format = 1;
	fd.dtfd_length = 64;
	fd.dtfd_string = (char *)ualloc(64);
	if (abi == DTRACE_IOCTL_SIZED)
		return io_sized(st, DTRACE_CTL_FORMAT, &fd, NULL);
	u = ualloc(sizeof(fd));
	memcpy(uptr(u), &fd, sizeof(fd));
	return io_uaddr(st, DTRACE_CTL_FORMAT, u, NULL);
}

static void
test_fault_at_every_copy(dtrace_id_t fire, dtrace_ioctl_abi_t abi)
{
	static const struct {
		const char *name;
		op_fn_t fn;
		bool after_go; /* needs a running state */
	} ops[] = {
		{"ENABLE", op_enable, false}, {"AGGSNAP", op_snap, true},
		{"AGGDESC", op_aggdesc, true}, {"DOFGET", op_dofget, true},
		{"STATUS", op_status, true},   {"FORMAT", op_format, true},
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		int n, err;

		for (n = 1;; n++) {
			dtrace_state_t *st;
			size_t size;
			int matched;

			CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
			if (ops[i].after_go) {
				CHECK_EQ(enable(st, abi, program(&size), &matched), 0);
				go_stop(st, DTRACE_CTL_GO, abi);
				dtrace_probe(fire, 1, 0, 0, 0, 0);
			}
			copies = 0;
			fail_at = n;
			err = ops[i].fn(st, abi);
			fail_at = 0;
			dtrace_state_close(st);
			utop = 0;
			if (copies < n) /* no copy left to fail: it succeeded */
				break;
			if (err != DTRACE_EFAULT)
				fprintf(stderr, "%s: copy %d failed, returned %d\n", ops[i].name, n,
					err);
			CHECK_EQ(err, DTRACE_EFAULT);
		}
		CHECK_EQ(err, 0);
		/* it copied at least once (a SIZED STATUS has nothing to copy) */
		CHECK(n > 1 || (abi == DTRACE_IOCTL_SIZED && ops[i].fn == op_status));
	}
}

static void
test_bad_addresses_and_sizes(dtrace_id_t fire, dtrace_ioctl_abi_t abi)
{
	dtrace_state_t *st;
	dof_hdr_t *hdr;
	uintptr_t u, bad = UBASE + USIZE + 4096;
	size_t size;
	int matched, dummy = 0;
	dtrace_ctl_t byref[] = {DTRACE_CTL_BUFSNAP, DTRACE_CTL_AGGSNAP, DTRACE_CTL_EPROBE,
				DTRACE_CTL_AGGDESC, DTRACE_CTL_DOFGET};

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);

	/* the structure's address is bad, or NULL */
	for (size_t i = 0; i < sizeof(byref) / sizeof(byref[0]); i++) {
		CHECK_EQ(io_byref(st, byref[i], abi, bad, NULL), DTRACE_EFAULT);
		CHECK_EQ(io_byref(st, byref[i], abi, 0, NULL), DTRACE_EFAULT);
	}
	CHECK_EQ(enable(st, abi, bad, &matched), DTRACE_EFAULT);
	if (abi == DTRACE_IOCTL_UADDR) {
		CHECK_EQ(io_uaddr(st, DTRACE_CTL_CONF, bad, NULL), DTRACE_EFAULT);
		CHECK_EQ(io_uaddr(st, DTRACE_CTL_PROBES, 0, NULL), DTRACE_EFAULT);
		CHECK_EQ(io_uaddr(st, DTRACE_CTL_PROBES, bad, NULL), DTRACE_EFAULT);
	} else {
		CHECK_EQ(io_sized(st, DTRACE_CTL_PROBES, NULL, NULL), DTRACE_EFAULT);
		CHECK_EQ(io_sized(st, DTRACE_CTL_ENABLE, NULL, NULL), DTRACE_EFAULT);
	}
	/* ENABLE with no image: match again, as DTrace */
	CHECK_EQ(enable(st, abi, 0, &matched), 0);

	/* a DOF image whose header claims more than the limit: E2BIG, and
	 * no copy of that size was attempted */
	u = ualloc(sizeof(dof_hdr_t));
	hdr = uptr(u);
	hdr->dofh_loadsz = (uint64_t)DTRACE_DOF_MAXSIZE;
	largest_copyin = 0;
	CHECK_EQ(enable(st, abi, u, &matched), DTRACE_E2BIG);
	CHECK_STREQ(dtrace_state_errmsg(st), "DOF load size exceeds maximum");
	CHECK_EQ(largest_copyin, sizeof(dof_hdr_t));
	hdr->dofh_loadsz = ~0ull;
	CHECK_EQ(enable(st, abi, u, &matched), DTRACE_E2BIG);
	hdr->dofh_loadsz = sizeof(dof_hdr_t) - 1;
	CHECK_EQ(enable(st, abi, u, &matched), DTRACE_EINVAL);
	/* a size that runs past the consumer's mapping */
	hdr->dofh_loadsz = USIZE + 16;
	CHECK_EQ(enable(st, abi, u, &matched), DTRACE_EFAULT);

	/* the header changed between the two copies: the loader refuses */
	u = program(&size);
	hdr = uptr(u);
	hdr->dofh_loadsz = size + 64;
	CHECK_EQ(enable(st, abi, u, &matched), DTRACE_EINVAL);

	/* snapshot data, a format string and DOFGET's room pointing nowhere */
	hdr->dofh_loadsz = size;
	CHECK_EQ(enable(st, abi, u, &matched), 0);
	go_stop(st, DTRACE_CTL_GO, abi);
	{
		uintptr_t ub = ualloc(sizeof(dtrace_bufdesc_t));
		dtrace_bufdesc_t *bd = uptr(ub);

		bd->dtbd_size = 0;
		bd->dtbd_data = (char *)bad;
		dtrace_probe(fire, 3, 0, 0, 0, 0);
		CHECK_EQ(io_byref(st, DTRACE_CTL_BUFSNAP, abi, ub, NULL), DTRACE_EFAULT);
	}
	{
		dtrace_fmtdesc_t fd;

		memset(&fd, 0, sizeof(fd));
		fd.dtfd_format = 1;
		fd.dtfd_length = 64;
		fd.dtfd_string = (char *)bad;
		if (abi == DTRACE_IOCTL_SIZED) {
			CHECK_EQ(io_sized(st, DTRACE_CTL_FORMAT, &fd, NULL), DTRACE_EFAULT);
		} else {
			u = ualloc(sizeof(fd));
			memcpy(uptr(u), &fd, sizeof(fd));
			CHECK_EQ(io_uaddr(st, DTRACE_CTL_FORMAT, u, NULL), DTRACE_EFAULT);
		}
	}
	u = UBASE + USIZE - 64; /* room for the header, not for the image */
	((dof_hdr_t *)uptr(u))->dofh_loadsz = 4096;
	CHECK_EQ(io_byref(st, DTRACE_CTL_DOFGET, abi, u, NULL), DTRACE_EFAULT);

	/* unknown operations and arguments */
	CHECK_EQ(dtrace_ctl_ioctl(st, (dtrace_ctl_t)3, abi, &dummy, &ua, NULL), DTRACE_ENOTSUP);
	CHECK_EQ(dtrace_ctl_ioctl(st, (dtrace_ctl_t)14, abi, &dummy, &ua, NULL), DTRACE_ENOTSUP);
	CHECK_EQ(dtrace_ctl_ioctl(st, (dtrace_ctl_t)200, abi, &dummy, &ua, NULL), DTRACE_ENOTSUP);
	CHECK_EQ(dtrace_ctl_ioctl(st, DTRACE_CTL_CONF, (dtrace_ioctl_abi_t)9, &dummy, &ua, NULL),
		 DTRACE_EINVAL);
	CHECK_EQ(dtrace_ctl_ioctl(st, DTRACE_CTL_CONF, abi, &dummy, NULL, NULL), DTRACE_EINVAL);
	CHECK_EQ(dtrace_ctl_ioctl(NULL, DTRACE_CTL_CONF, abi, &dummy, &ua, NULL), DTRACE_EINVAL);
	dtrace_state_close(st);

	/* GO whose result cannot be written back: EFAULT, but the state runs
	 * (DTrace's GO also copies the CPU out after starting) */
	if (abi == DTRACE_IOCTL_UADDR) {
		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
		CHECK_EQ(enable(st, abi, program(&size), &matched), 0);
		CHECK_EQ(io_uaddr(st, DTRACE_CTL_GO, bad, NULL), DTRACE_EFAULT);
		CHECK_EQ(st->dts_activity, DTRACE_ACTIVITY_ACTIVE);
		dtrace_state_close(st);
	}
	utop = 0;
}

int
main(void)
{
	static const char *const names[] = {"fire", "other", NULL};
	dtrace_id_t ids[2];
	dtrace_provider_id_t p = harness_setup(1, names, ids);
	const dtrace_ioctl_abi_t abis[] = {DTRACE_IOCTL_UADDR, DTRACE_IOCTL_SIZED};

	for (int i = 0; i < 2; i++) {
		test_end_to_end(ids[0], abis[i]);
		utop = 0;
		test_bad_addresses_and_sizes(ids[0], abis[i]);
		test_fault_at_every_copy(ids[0], abis[i]);
	}
	harness_teardown(p);
	return TEST_DONE();
}
