/*
 * Every DTrace action, fired through the ECB walker, records what DTrace's
 * consumer expects to read: trace() of integers and strings (zero-padded to
 * strsize), tracemem() with a static and a dynamic size, printf() with and
 * without arguments (format ids that DTRACE_CTL_FORMAT resolves), printa(),
 * print() (the data by reference, its type string as the format), stack()
 * and ustack() from the port's stacks (zero-filled past the depth, the pid
 * first), sym/mod/usym/umod/uaddr, the consumer-side actions clear(),
 * trunc(), normalize(), denormalize(), setopt() and ftruncate() (LIBACT
 * records of their arguments), freopen() and system() (printf-like, and
 * destructive), and exit() (its status, and the state draining).
 * speculate()/commit()/discard() are in test_e2e_core_aggregate_and_speculate.c
 * and test_spec_state_machine.c.
 *
 * Each destructive action alone (stop, raise, system, freopen, breakpoint,
 * panic, chill) makes GO fail with EACCES unless the destructive option is
 * set, and none of them reaches the port then; a DIFO calling copyout() is
 * refused earlier, at ENABLE, by the DIF validator.
 */
#include "core_harness.h"

static struct {
	dtrace_eprobedesc_t ep;
	dtrace_recdesc_t more[15];
} epd;

static dtrace_recdesc_t *
R(int i)
{
	return (dtrace_recdesc_t *)(void *)((char *)&epd.ep +
					    offsetof(dtrace_eprobedesc_t, dtepd_rec)) +
	       i;
}

/* A DIFO returning the string constant s (a strsize record). */
static uint32_t
difo_str(dofb_t *b, const char *s)
{
	char strs[64] = "";
	dif_instr_t text[] = {DIF_INSTR_SETS(0, 1), DIF_INSTR_RET(1)};
	size_t len = strlen(s) + 1;

	memcpy(strs, s, len);
	return dofb_difo(b, dofb_type_string(0), text, 2, NULL, 0, strs, len, NULL, 0);
}

/* A DIFO returning `size` bytes at address p by reference (tracemem, print). */
static uint32_t
difo_mem(dofb_t *b, const void *p, uint32_t size)
{
	uint64_t addr = (uint64_t)(uintptr_t)p;
	dif_instr_t text[] = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	dtrace_diftype_t t = dofb_type_int(size);

	t.dtdt_flags = DIF_TF_BYREF;
	return dofb_difo(b, t, text, 2, &addr, 1, NULL, 0, NULL, 0);
}

/* A string table for formats; fmtoff(i) is the offset of the ith. */
static const char formats[] = "\0%d %s\n\0hello\n\0%@d\n\0int`17\0/tmp/out\0echo %d";
enum { F_PRINTF = 1, F_HELLO = 8, F_PRINTA = 15, F_TYPE = 20, F_FILE = 27, F_SYSTEM = 36 };

static dof_actdesc_t
fmt_act(uint32_t kind, uint32_t difo, uint32_t strtab, uint64_t off)
{
	dof_actdesc_t a = dofb_act(kind, difo, off);

	a.dofa_strtab = strtab;
	return a;
}

/* The format string behind id `fmt`. */
static const char *
format(dtrace_state_t *st, uint16_t fmt)
{
	static char buf[64];
	dtrace_fmtdesc_t fd;

	memset(&fd, 0, sizeof(fd));
	memset(buf, 0, sizeof(buf));
	fd.dtfd_format = fmt;
	fd.dtfd_string = buf;
	fd.dtfd_length = sizeof(buf);
	if (dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL) != 0)
		return "(no such format)";
	return buf;
}

static uint8_t memory[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const struct {
	int32_t a;
	int32_t b;
	int16_t c;
} printed = {-5, 77, 9};

/* Records found in the snapshot, by the ECB's uarg (clause number). */
static const char *by_uarg[16];
static dtrace_epid_t epid_of[16];

static void
index_records(dtrace_state_t *st, uint64_t size)
{
	uint64_t offs = 0;

	memset(by_uarg, 0, sizeof(by_uarg));
	while (offs < size) {
		dtrace_epid_t epid = rd32(harness_data + offs);

		if (epid == DTRACE_EPIDNONE) { /* alignment padding */
			offs += sizeof(uint32_t);
			continue;
		}
		memset(&epd, 0, sizeof(epd));
		epd.ep.dtepd_epid = epid;
		epd.ep.dtepd_nrecs = 16;
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), 0);
		CHECK(epd.ep.dtepd_uarg < 16 && epd.ep.dtepd_size != 0);
		if (epd.ep.dtepd_uarg >= 16 || epd.ep.dtepd_size == 0)
			return;
		by_uarg[epd.ep.dtepd_uarg] = harness_data + offs;
		epid_of[epd.ep.dtepd_uarg] = epid;
		offs += epd.ep.dtepd_size;
	}
	CHECK_EQ(offs, size);
}

/* The record descriptions of clause `uarg`, into epd. */
static void
describe(dtrace_state_t *st, int uarg)
{
	memset(&epd, 0, sizeof(epd));
	epd.ep.dtepd_epid = epid_of[uarg];
	epd.ep.dtepd_nrecs = 16;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), 0);
}

static void
test_recording_actions(dtrace_id_t fire)
{
	static const uint64_t pcs[] = {0x1000, 0x2000, 0x3000};
	static const uint64_t upcs[] = {0x400100, 0x400200, 0x400300, 0x400400};
	dtrace_state_t *st;
	dtrace_status_t stat;
	uint32_t fmt, pd;
	dof_actdesc_t a[8];
	const char *r;
	int32_t cpu;
	dofb_t b;

	testport_set_pcstack(pcs, 3);
	testport_set_ustack(upcs, 4);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	fmt = dofb_add(&b, DOF_SECT_STRTAB, 1, 0, formats, sizeof(formats));

	/* 1: trace(arg0); trace((short)arg1); trace("hi") */
	pd = dofb_probedesc(&b, "test", "", "", "fire");
	a[0] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
	a[1] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 2));
	a[2] = harness_trace(difo_str(&b, "hi"));
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 3), 1);
	/* 2: tracemem(memory, 16); tracemem(memory, 16, 5) */
	a[0] = dofb_act(DTRACEACT_TRACEMEM, difo_mem(&b, memory, 16), 16);
	a[1] = dofb_act(DTRACEACT_TRACEMEM_DYNSIZE, dofb_difo_const(&b, 5, 8), 0);
	a[2] = dofb_act(DTRACEACT_TRACEMEM, difo_mem(&b, memory, 16), 16);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 3), 2);
	/* 3: printf("%d %s\n", arg0, "str"); printf("hello\n") */
	a[0] = fmt_act(DTRACEACT_PRINTF, dofb_difo_var(&b, DIF_VAR_ARG0, 8), fmt, F_PRINTF);
	a[1] = fmt_act(DTRACEACT_PRINTF, difo_str(&b, "str"), fmt, F_PRINTF);
	a[2] = fmt_act(DTRACEACT_PRINTF, dofb_difo_const(&b, 0, 8), fmt, F_HELLO);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 3), 3);
	/* 4: @a = count(); printa(@a); printa("%@d\n", @a) */
	a[0] = harness_trace(dofb_difo_const(&b, 1, 8));
	a[1] = dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0);
	a[1].dofa_ntuple = 1;
	a[2] = dofb_act(DTRACEACT_PRINTA, dofb_difo_const(&b, 1, 8), 0);
	a[3] = fmt_act(DTRACEACT_PRINTA, dofb_difo_const(&b, 1, 8), fmt, F_PRINTA);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 4), 4);
	/* 5: print(printed): 10 bytes by reference, typed by "int`17" */
	a[0] = fmt_act(DTRACEACT_DIFEXPR, difo_mem(&b, &printed, 10), fmt, F_TYPE);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 1), 5);
	/* 6: stack(5); ustack(6); sym(arg0); mod(arg0); usym(arg1); umod(arg1); uaddr(arg1) */
	a[0] = dofb_act(DTRACEACT_STACK, DOF_SECIDX_NONE, 5);
	a[1] = dofb_act(DTRACEACT_USTACK, DOF_SECIDX_NONE, DTRACE_USTACK_ARG(6, 0));
	a[2] = dofb_act(DTRACEACT_SYM, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
	a[3] = dofb_act(DTRACEACT_MOD, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
	a[4] = dofb_act(DTRACEACT_USYM, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0);
	a[5] = dofb_act(DTRACEACT_UMOD, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0);
	a[6] = dofb_act(DTRACEACT_UADDR, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 7), 6);
	/* 7: clear(@a); trunc(@a, 3); normalize(@a, 10); denormalize(@a) */
	a[0] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 1, 8), DT_ACT_CLEAR);
	a[1] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 1, 8), DT_ACT_TRUNC);
	a[2] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 3, 8), DT_ACT_TRUNC);
	a[3] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 1, 8), DT_ACT_NORMALIZE);
	a[4] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 10, 8), DT_ACT_NORMALIZE);
	a[5] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 1, 8), DT_ACT_DENORMALIZE);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 6), 7);
	/* 8: setopt("quiet", "1"); ftruncate() */
	a[0] = dofb_act(DTRACEACT_LIBACT, difo_str(&b, "quiet"), DT_ACT_SETOPT);
	a[1] = dofb_act(DTRACEACT_LIBACT, difo_str(&b, "1"), DT_ACT_SETOPT);
	a[2] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 0, 8), DT_ACT_FTRUNCATE);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 3), 8);
	/* 9: freopen("/tmp/out"); system("echo %d", arg0) */
	a[0] = fmt_act(DTRACEACT_FREOPEN, dofb_difo_const(&b, 0, 8), fmt, F_FILE);
	a[1] = fmt_act(DTRACEACT_SYSTEM, dofb_difo_var(&b, DIF_VAR_ARG0, 8), fmt, F_SYSTEM);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), 9);
	/* 10: exit(7), last: later clauses would no longer run */
	a[0] = dofb_act(DTRACEACT_EXIT, dofb_difo_const(&b, 7, 4), 0);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 1), 10);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 16384},
					    {DTRACEOPT_AGGSIZE, 4096},
					    {DTRACEOPT_STRSIZE, 32},
					    {DTRACEOPT_DESTRUCTIVE, 1}};
		dofb_options(&b, opts, 4);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);

	dtrace_probe(fire, 0xfeedface, 0x7fff1234, 0, 0, 0);
	index_records(st, harness_snap(st, 0, false, NULL));

	/* trace */
	CHECK((r = by_uarg[1]) != NULL);
	if (r != NULL) {
		describe(st, 1);
		CHECK_EQ(rd64(r + R(0)->dtrd_offset), 0xfeedface);
		CHECK_EQ(R(1)->dtrd_size, 2);
		CHECK_EQ(*(const uint16_t *)(const void *)(r + R(1)->dtrd_offset), 0x1234);
		CHECK_EQ(R(2)->dtrd_size, 32);
		CHECK_STREQ(r + R(2)->dtrd_offset, "hi");
		for (uint32_t i = 2; i < 32; i++)
			CHECK_EQ(r[R(2)->dtrd_offset + i], 0);
	}
	/* tracemem: all 16 bytes; with a dynamic size of 5, 5 of them then zeros */
	CHECK((r = by_uarg[2]) != NULL);
	if (r != NULL) {
		describe(st, 2);
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_TRACEMEM);
		CHECK_EQ(R(0)->dtrd_size, 16);
		CHECK(memcmp(r + R(0)->dtrd_offset, memory, 16) == 0);
		CHECK_EQ(R(1)->dtrd_action, DTRACEACT_TRACEMEM_DYNSIZE);
		CHECK_EQ(rd64(r + R(1)->dtrd_offset), 5);
		CHECK(memcmp(r + R(2)->dtrd_offset, memory, 5) == 0);
		for (uint32_t i = 5; i < 16; i++)
			CHECK_EQ(r[R(2)->dtrd_offset + i], 0);
	}
	/* printf */
	CHECK((r = by_uarg[3]) != NULL);
	if (r != NULL) {
		describe(st, 3);
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_PRINTF);
		CHECK_EQ(rd64(r + R(0)->dtrd_offset), 0xfeedface);
		CHECK_STREQ(format(st, R(0)->dtrd_format), "%d %s\n");
		/* each printf record has its own id, as DTrace's dtrace_format_add */
		CHECK_STREQ(format(st, R(1)->dtrd_format), "%d %s\n");
		CHECK_STREQ(r + R(1)->dtrd_offset, "str");
		CHECK_STREQ(format(st, R(2)->dtrd_format), "hello\n");
		CHECK_EQ(rd64(r + R(2)->dtrd_offset), 0);
	}
	/* printa: the aggregation id, a format only when given */
	CHECK((r = by_uarg[4]) != NULL);
	if (r != NULL) {
		describe(st, 4);
		CHECK_EQ(epd.ep.dtepd_nrecs, 2); /* the aggregation records nothing here */
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_PRINTA);
		CHECK_EQ(R(0)->dtrd_format, 0);
		CHECK_EQ(rd64(r + R(0)->dtrd_offset), 1);
		CHECK_STREQ(format(st, R(1)->dtrd_format), "%@d\n");
		CHECK_EQ(rd64(r + R(1)->dtrd_offset), 1);
	}
	/* print: the object's bytes and its type */
	CHECK((r = by_uarg[5]) != NULL);
	if (r != NULL) {
		describe(st, 5);
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_DIFEXPR);
		CHECK_EQ(R(0)->dtrd_size, 10);
		CHECK(memcmp(r + R(0)->dtrd_offset, &printed, 10) == 0);
		CHECK_STREQ(format(st, R(0)->dtrd_format), "int`17");
	}
	/* stacks and symbols */
	CHECK((r = by_uarg[6]) != NULL);
	if (r != NULL) {
		describe(st, 6);
		CHECK_EQ(R(0)->dtrd_size, 5 * 8);
		for (int i = 0; i < 3; i++)
			CHECK_EQ(rd64(r + R(0)->dtrd_offset + 8 * (uint32_t)i), pcs[i]);
		CHECK_EQ(rd64(r + R(0)->dtrd_offset + 24), 0);
		CHECK_EQ(rd64(r + R(0)->dtrd_offset + 32), 0);
		CHECK_EQ(R(1)->dtrd_size, (6 + 1) * 8);
		CHECK_EQ(rd64(r + R(1)->dtrd_offset), 100); /* the pid */
		for (int i = 0; i < 4; i++)
			CHECK_EQ(rd64(r + R(1)->dtrd_offset + 8 + 8 * (uint32_t)i), upcs[i]);
		CHECK_EQ(rd64(r + R(1)->dtrd_offset + 40), 0);
		CHECK_EQ(rd64(r + R(1)->dtrd_offset + 48), 0);
		CHECK_EQ(rd64(r + R(2)->dtrd_offset), 0xfeedface);
		CHECK_EQ(rd64(r + R(3)->dtrd_offset), 0xfeedface);
		for (int i = 4; i <= 6; i++) {
			CHECK_EQ(R(i)->dtrd_size, 16);
			CHECK_EQ(rd64(r + R(i)->dtrd_offset), 100);
			CHECK_EQ(rd64(r + R(i)->dtrd_offset + 8), 0x7fff1234);
		}
	}
	/* consumer-side aggregation actions: their arguments, tagged */
	CHECK((r = by_uarg[7]) != NULL);
	if (r != NULL) {
		static const uint64_t args[][2] = {{DT_ACT_CLEAR, 1},     {DT_ACT_TRUNC, 1},
						   {DT_ACT_TRUNC, 3},     {DT_ACT_NORMALIZE, 1},
						   {DT_ACT_NORMALIZE, 10}, {DT_ACT_DENORMALIZE, 1}};

		describe(st, 7);
		CHECK_EQ(epd.ep.dtepd_nrecs, 6);
		for (int i = 0; i < 6; i++) {
			CHECK_EQ(R(i)->dtrd_action, DTRACEACT_LIBACT);
			CHECK_EQ(R(i)->dtrd_arg, args[i][0]);
			CHECK_EQ(rd64(r + R(i)->dtrd_offset), args[i][1]);
		}
	}
	CHECK((r = by_uarg[8]) != NULL);
	if (r != NULL) {
		describe(st, 8);
		CHECK_EQ(R(0)->dtrd_arg, DT_ACT_SETOPT);
		CHECK_STREQ(r + R(0)->dtrd_offset, "quiet");
		CHECK_EQ(R(1)->dtrd_arg, DT_ACT_SETOPT);
		CHECK_STREQ(r + R(1)->dtrd_offset, "1");
		CHECK_EQ(R(2)->dtrd_arg, DT_ACT_FTRUNCATE);
		CHECK_EQ(rd64(r + R(2)->dtrd_offset), 0);
	}
	/* freopen and system: printf-like records the consumer acts on */
	CHECK((r = by_uarg[9]) != NULL);
	if (r != NULL) {
		describe(st, 9);
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_FREOPEN);
		CHECK_STREQ(format(st, R(0)->dtrd_format), "/tmp/out");
		CHECK_EQ(R(1)->dtrd_action, DTRACEACT_SYSTEM);
		CHECK_STREQ(format(st, R(1)->dtrd_format), "echo %d");
		CHECK_EQ(rd64(r + R(1)->dtrd_offset), 0xfeedface);
	}
	/* exit: the status, and the state drains */
	CHECK((r = by_uarg[10]) != NULL);
	if (r != NULL) {
		describe(st, 10);
		CHECK_EQ(R(0)->dtrd_action, DTRACEACT_EXIT);
		CHECK_EQ(rd32(r + R(0)->dtrd_offset), 7);
	}
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_exiting, 1);
	/* a draining state records nothing more */
	dtrace_probe(fire, 1, 2, 0, 0, 0);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 0);
	/* the aggregation did count the one firing */
	CHECK(harness_snap(st, 0, true, NULL) != 0);

	dtrace_state_close(st);
	dofb_fini(&b);
	testport_set_pcstack(NULL, 0);
	testport_set_ustack(NULL, 0);
}

/* One clause with one destructive action: refused at GO unless allowed. */
static void
test_each_destructive_action_refused(dtrace_id_t fire)
{
	static const uint32_t kinds[] = {DTRACEACT_STOP,   DTRACEACT_RAISE,      DTRACEACT_SYSTEM,
					 DTRACEACT_FREOPEN, DTRACEACT_BREAKPOINT, DTRACEACT_PANIC,
					 DTRACEACT_CHILL,  DIF_SUBR_COPYOUT};
	const testport_destructive_t *d = testport_destructive();

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		for (int allowed = 0; allowed <= 1; allowed++) {
			unsigned acts = d->td_stops + d->td_raises + d->td_breakpoints + d->td_panics;
			uint64_t chilled = d->td_chilled_ns;
			dtrace_state_t *st;
			dof_actdesc_t a;
			int32_t cpu;
			uint32_t fmt;
			dofb_t b;

			CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
			dofb_init(&b);
			fmt = dofb_add(&b, DOF_SECT_STRTAB, 1, 0, formats, sizeof(formats));
			switch (kinds[i]) {
			case DTRACEACT_STOP:
			case DTRACEACT_BREAKPOINT:
			case DTRACEACT_PANIC:
				a = dofb_act(kinds[i], DOF_SECIDX_NONE, 0);
				break;
			case DTRACEACT_SYSTEM:
			case DTRACEACT_FREOPEN:
				a = fmt_act(kinds[i], dofb_difo_const(&b, 0, 8), fmt, F_FILE);
				break;
			case DIF_SUBR_COPYOUT: {
				/* trace(copyout(arg0, arg1, 0)) calls a destructive subroutine */
				dif_instr_t text[] = {
					DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1),
					DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
					DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG1, 1),
					DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
					DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 0),
					DIF_INSTR_CALL(DIF_SUBR_COPYOUT, 1),
					DIF_INSTR_RET(1),
				};
				a = harness_trace(dofb_difo(&b, dofb_type_int(8), text, 7, NULL, 0,
							    NULL, 0, NULL, 0));
				break;
			}
			default: /* raise(0), chill(0): nothing happens even when allowed */
				a = dofb_act(kinds[i], dofb_difo_const(&b, 0, 8), 0);
				break;
			}
			dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"),
				     DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
			{
				const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096},
							    {DTRACEOPT_DESTRUCTIVE, 1}};
				dofb_options(&b, opts, allowed ? 2 : 1);
			}
			if (kinds[i] == DIF_SUBR_COPYOUT && !allowed) {
				/* stricter than DTrace (EACCES at GO): the DIF validator
				 * already refuses the subroutine at ENABLE */
				dofb_finish(&b);
				CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, NULL),
					 DTRACE_EINVAL);
				CHECK(strstr(dtrace_state_errmsg(st),
					     "copyout() needs the destructive option") != NULL);
				CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
			} else {
				CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
				CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL),
					 allowed ? 0 : DTRACE_EACCES);
			}
			dtrace_probe(fire, 0, 0, 0, 0, 0);
			if (!allowed) {
				CHECK_EQ(d->td_stops + d->td_raises + d->td_breakpoints + d->td_panics,
					 acts);
				CHECK_EQ(d->td_chilled_ns, chilled);
			} else if (kinds[i] == DTRACEACT_STOP || kinds[i] == DTRACEACT_BREAKPOINT ||
				   kinds[i] == DTRACEACT_PANIC) {
				CHECK_EQ(d->td_stops + d->td_raises + d->td_breakpoints + d->td_panics,
					 acts + 1);
			}
			dtrace_state_close(st);
			dofb_fini(&b);
		}
	}
}

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_id_t ids[1];
	dtrace_provider_id_t p = harness_setup(1, names, ids);

	test_recording_actions(ids[0]);
	test_each_destructive_action_refused(ids[0]);
	harness_teardown(p);
	return TEST_DONE();
}
