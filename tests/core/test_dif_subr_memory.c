/*
 * DIF's memory, user-space, network and miscellaneous subroutines behave as
 * in DTrace: alloca, bcopy, copyin, copyinto, copyinstr, copyout,
 * copyoutstr, memref, memstr, rand, progenyof, speculation, the byte-order
 * conversions, inet_ntoa/inet_ntoa6/inet_ntop and getmajor/getminor; with
 * their faults.
 */
#include "dif_call.h"

static void
test_alloca(void)
{
	uintptr_t a = call(DIF_SUBR_ALLOCA, V(13));

	CHECK(a != 0 && (a & 7) == 0);
	CHECK_EQ(e->m.dtms_scratch_ptr - a, 13);
	CHECK(dtrace_dif_inrange(a, 13, e->m.dtms_scratch_base, HARNESS_SCRATCH));
	CHECK_EQ(call(DIF_SUBR_ALLOCA, V(HARNESS_SCRATCH + 1)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(1));
	CHECK_EQ(call(DIF_SUBR_ALLOCA, V(-1)), 0); /* rounding must not wrap */
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(1));
}

/* A program: d = alloca(n); bcopy(src, d, n) (or copyinto(src, n, d)); ret d */
static uint64_t
alloca_then(uint32_t subr, uintptr_t src, uint64_t n, int64_t dest_adjust)
{
	uint64_t ints[] = {n, src, (uint64_t)dest_adjust};
	dif_instr_t bc[] = {SETX(0, 1), PUSHTV(1), CALL(DIF_SUBR_ALLOCA, 2), I(FLUSHTS, 0, 0, 0),
			    SETX(2, 4), I(ADD, 2, 4, 2), SETX(1, 3), PUSHTV(3),
			    PUSHTV(subr == DIF_SUBR_BCOPY ? 2 : 1),
			    PUSHTV(subr == DIF_SUBR_BCOPY ? 1 : 2), CALL(subr, 5), RET(2)};
	dtrace_difo_t *dp = env_load(e, mkdifo(bc, NELEM(bc), ints, NELEM(ints), NULL, 0, NULL, 0));
	uint64_t r = env_run1(e, dp);

	dtrace_difo_release(dp, env_vs(e));
	return r;
}

static void
test_bcopy_and_copyinto(void)
{
	static const char src[] = "0123456789";

	CHECK_STREQ(STR(alloca_then(DIF_SUBR_BCOPY, (uintptr_t)src, 11, 0)), "0123456789");
	CHECK_NOFAULT(e);
	CHECK_STREQ(STR(alloca_then(DIF_SUBR_COPYINTO, (uintptr_t)src, 11, 0)), "0123456789");
	CHECK_NOFAULT(e);
	/* Destination must be alloca()ed scratch: one byte past is refused. */
	uintptr_t d = alloca_then(DIF_SUBR_BCOPY, (uintptr_t)src, 11, 1);
	CHECK_EQ(d, 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_BADADDR);
	CHECK_EQ(e->m.dtms_fltoffs, 40);
	alloca_then(DIF_SUBR_COPYINTO, (uintptr_t)src, 11, -8);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_BADADDR);
	/* Source faults report the faulting byte; copyinto reads user space. */
	testport_fault_range(DTRACE_AS_USER, (uintptr_t)src + 4, 1, DTRACEFLT_BADADDR);
	alloca_then(DIF_SUBR_COPYINTO, (uintptr_t)src, 11, 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)src + 4, 40);
	alloca_then(DIF_SUBR_BCOPY, (uintptr_t)src, 11, 0); /* kernel space: fine */
	CHECK_NOFAULT(e);
	testport_fault_clear();
	/* bcopy from memory the consumer may not read: KPRIV. */
	e->m.dtms_access = DTRACE_ACCESS_ARGS;
	uint64_t ints[] = {8, (uintptr_t)src};
	dif_instr_t bc[] = {SETX(0, 1), PUSHTV(1), CALL(DIF_SUBR_ALLOCA, 2), I(FLUSHTS, 0, 0, 0),
			    SETX(1, 3), PUSHTV(3), PUSHTV(2), PUSHTV(1), CALL(DIF_SUBR_BCOPY, 5),
			    RET(2)};
	dtrace_difo_t *dp = env_load(e, mkdifo(bc, NELEM(bc), ints, 2, NULL, 0, NULL, 0));
	env_run1(e, dp);
	CHECK_FAULT(e, DTRACE_CPUF_KPRIV, (uintptr_t)src, 32);
	dtrace_difo_release(dp, env_vs(e));
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_copyin_and_copyinstr(void)
{
	static const char user[] = "user string";
	uintptr_t r;

	r = call(DIF_SUBR_COPYIN, V((uintptr_t)user), V(4));
	CHECK(r != 0 && memcmp((void *)r, "user", 4) == 0 && (r & 7) == 0);
	CHECK_STREQ(STR(call(DIF_SUBR_COPYINSTR, V((uintptr_t)user))), "user string");
	CHECK_STREQ(STR(call(DIF_SUBR_COPYINSTR, V((uintptr_t)user), V(4))), "user");
	CHECK_EQ(e->m.dtms_scratch_ptr - e->m.dtms_scratch_base, 5);
	e->state.dts_options[DTRACEOPT_STRSIZE] = 5;
	CHECK_STREQ(STR(call(DIF_SUBR_COPYINSTR, V((uintptr_t)user))), "user");
	CHECK_STREQ(STR(call(DIF_SUBR_COPYINSTR, V((uintptr_t)user), V(100))), "user");
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
	CHECK_NOFAULT(e);

	testport_fault_range(DTRACE_AS_USER, (uintptr_t)user + 2, 1, DTRACEFLT_BADADDR);
	CHECK_EQ(call(DIF_SUBR_COPYIN, V((uintptr_t)user), V(4)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)user + 2, CALL_OFFSET(2));
	CHECK_EQ(call(DIF_SUBR_COPYINSTR, V((uintptr_t)user)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)user + 2, CALL_OFFSET(1));
	testport_fault_clear();
	CHECK_EQ(call(DIF_SUBR_COPYIN, V(0), V(4)), 0); /* NULL pointer */
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, 0, CALL_OFFSET(2));
	CHECK_EQ(call(DIF_SUBR_COPYIN, V((uintptr_t)user), V(HARNESS_SCRATCH + 1)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(2));
}

static void
test_copyout_and_copyoutstr(void)
{
	static char ubuf[16];

	memset(ubuf, 'x', sizeof(ubuf));
	call(DIF_SUBR_COPYOUT, S("abc"), V((uintptr_t)ubuf), V(3));
	CHECK_NOFAULT(e);
	CHECK(memcmp(ubuf, "abcx", 4) == 0);
	memset(ubuf, 'x', sizeof(ubuf));
	call(DIF_SUBR_COPYOUTSTR, S("hi"), V((uintptr_t)ubuf), V(10));
	CHECK_NOFAULT(e);
	CHECK(memcmp(ubuf, "hi\0x", 4) == 0);
	memset(ubuf, 'x', sizeof(ubuf));
	call(DIF_SUBR_COPYOUTSTR, S("hello"), V((uintptr_t)ubuf), V(3));
	CHECK(memcmp(ubuf, "helx", 4) == 0); /* at most size bytes */
	/* A fault in user space reports the user address. */
	testport_fault_range(DTRACE_AS_USER, (uintptr_t)ubuf + 1, 1, DTRACEFLT_BADADDR);
	call(DIF_SUBR_COPYOUT, S("abc"), V((uintptr_t)ubuf), V(3));
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)ubuf + 1, CALL_OFFSET(3));
	testport_fault_clear();
	/* Acting on the process needs proc access: UPRIV otherwise. */
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_ARGS;
	memset(ubuf, 'x', sizeof(ubuf));
	env_fire(e);
	targ_t a[] = {S("abc"), V((uintptr_t)ubuf), V(3)};
	call_args(false, DIF_SUBR_COPYOUT, 3, a);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_UPRIV);
	CHECK_EQ(ubuf[0], 'x');
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_memref_and_memstr(void)
{
	static const char mem[] = {'a', 0, 'b', 0, 'c'};
	uintptr_t *p = (uintptr_t *)(uintptr_t)call(DIF_SUBR_MEMREF, V(0x1234), V(56));

	CHECK(p != NULL && p[0] == 0x1234 && p[1] == 56);
	CHECK_EQ((uintptr_t)p & (sizeof(uintptr_t) - 1), 0);
	CHECK_STREQ(STR(call(DIF_SUBR_MEMSTR, V((uintptr_t)mem), V(' '), V(6))), "a b c");
	CHECK_STREQ(STR(call(DIF_SUBR_MEMSTR, V((uintptr_t)mem), V('.'), V(4))), "a.b");
	CHECK_EQ(call(DIF_SUBR_MEMSTR, V((uintptr_t)mem), V(' '), V(0)), 0);
	CHECK_NOFAULT(e);
	call(DIF_SUBR_MEMSTR, V((uintptr_t)mem), V(' '), V(5000));
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 5000, CALL_OFFSET(3));
}

static void
test_rand_progenyof_speculation(void)
{
	uint64_t a = call0(DIF_SUBR_RAND), b = call0(DIF_SUBR_RAND), c = call0(DIF_SUBR_RAND);

	CHECK(a != b && b != c && a != c);
	/* Per-CPU state: the same seed gives the same sequence. */
	e->cpus[0].cpuc_rand[0] = 1;
	e->cpus[0].cpuc_rand[1] = 2;
	a = call0(DIF_SUBR_RAND);
	e->cpus[0].cpuc_rand[0] = 1;
	e->cpus[0].cpuc_rand[1] = 2;
	CHECK_EQ(call0(DIF_SUBR_RAND), a);
	CHECK_EQ(a, 3); /* xoroshiro128+: s0 + s1 */

	CHECK_EQ(call(DIF_SUBR_PROGENYOF, V(100)), 1); /* the process itself */
	CHECK_EQ(call(DIF_SUBR_PROGENYOF, V(1)), 1);   /* its parent */
	CHECK_EQ(call(DIF_SUBR_PROGENYOF, V(0)), 1);   /* the root, above the parent */
	CHECK_EQ(call(DIF_SUBR_PROGENYOF, V(77)), 0);
	/* a pid_t: the upper 32 bits are not part of it */
	CHECK_EQ(call(DIF_SUBR_PROGENYOF, V(((uint64_t)1 << 32) | 100)), 1);
	CHECK_NOFAULT(e);

	/* speculation() is the buffers' allocator: none configured, none given. */
	CHECK_EQ(call0(DIF_SUBR_SPECULATION), 0);
	CHECK_NOFAULT(e);
	CHECK_EQ(e->state_rw.dsr_speculations_unavail, 1);
	/* Two speculations: ids 1 and 2, then none. */
	dtrace_speculation_t specs[2];
	memset(specs, 0, sizeof(specs));
	e->state.dts_speculations = specs;
	e->state.dts_nspeculations = 2;
	CHECK_EQ(call0(DIF_SUBR_SPECULATION), 1);
	CHECK_EQ(call0(DIF_SUBR_SPECULATION), 2);
	CHECK_EQ(call0(DIF_SUBR_SPECULATION), 0);
	CHECK_EQ(e->state_rw.dsr_speculations_unavail, 2);
	e->state.dts_speculations = NULL;
	e->state.dts_nspeculations = 0;
}

static void
test_byte_order(void)
{
	CHECK_EQ(call(DIF_SUBR_HTONS, V(0x1234)), 0x3412);
	CHECK_EQ(call(DIF_SUBR_NTOHS, V(0xff3412)), 0x1234); /* truncated to 16 bits */
	CHECK_EQ(call(DIF_SUBR_HTONL, V(0x12345678)), 0x78563412);
	CHECK_EQ(call(DIF_SUBR_NTOHL, V(0x78563412)), 0x12345678);
	CHECK_EQ(call(DIF_SUBR_HTONLL, V(0x0102030405060708ull)), 0x0807060504030201ull);
	CHECK_EQ(call(DIF_SUBR_NTOHLL, V(0x0807060504030201ull)), 0x0102030405060708ull);
}

/* The port splits a dev_t (the test port as illumos' 64-bit dev_t); results are 32 bits. */
static void
test_getmajor_getminor(void)
{
	CHECK_EQ(call(DIF_SUBR_GETMAJOR, V(0x0000001200000034ull)), 0x12);
	CHECK_EQ(call(DIF_SUBR_GETMINOR, V(0x0000001200000034ull)), 0x34);
	CHECK_EQ(call(DIF_SUBR_GETMAJOR, V(0xfffffffffffffffeull)), 0xffffffffu);
	CHECK_EQ(call(DIF_SUBR_GETMINOR, V(0xfffffffffffffffeull)), 0xfffffffeu);
	CHECK_NOFAULT(e);
}

static const char *
ntop6(uint64_t af, const char *hex)
{
	static uint8_t a[16];

	for (int i = 0; i < 16; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		a[i] = (uint8_t)v;
	}
	return STR(call(DIF_SUBR_INET_NTOP, V(af), V((uintptr_t)a)));
}

static void
test_inet(void)
{
	static const uint8_t v4[4] = {127, 0, 0, 1}, v4b[4] = {10, 200, 0, 255};
	static uint8_t a6[16];

	CHECK_STREQ(STR(call(DIF_SUBR_INET_NTOA, V((uintptr_t)v4))), "127.0.0.1");
	CHECK_STREQ(STR(call(DIF_SUBR_INET_NTOP, V(2), V((uintptr_t)v4b))), "10.200.0.255");
	CHECK_STREQ(ntop6(28, "fe800000000000000000000000000001"), "fe80::1");
	CHECK_STREQ(ntop6(10, "00000000000000000000000000000000"), "::");
	CHECK_STREQ(ntop6(26, "00000000000000000000000000000001"), "::1");
	CHECK_STREQ(ntop6(28, "00000000000000000000ffff01020304"), "::ffff:1.2.3.4");
	CHECK_STREQ(ntop6(28, "0000000000000000000000000a000001"), "::10.0.0.1");
	CHECK_STREQ(ntop6(28, "00010000000000020000000000000003"), "1:0:0:2::3");
	/*
	 * Two equal runs of zero groups: DTrace measures runs in bytes up to
	 * the next non-zero byte, so the second run (which ends in the high
	 * zero byte of ":1") counts longer and is the one compressed.
	 */
	CHECK_STREQ(ntop6(28, "20010db8000000000001000000000001"), "2001:db8:0:0:1::1");
	CHECK_STREQ(ntop6(28, "20010db8000100020003000400050006"), "2001:db8:1:2:3:4:5:6");
	CHECK_STREQ(ntop6(28, "00010000000000000000000000000000"), "1::");
	CHECK_STREQ(ntop6(28, "00010002000000000000000000000000"), "1:2::");
	CHECK_STREQ(ntop6(28, "0001abcd000000000000000000000001"), "1:abcd::1");
	/* inet_ntoa6 gives just the IPv4 part of a mapped address. */
	memcpy(a6, "\0\0\0\0\0\0\0\0\0\0\xff\xff\xc0\xa8\x01\x02", 16);
	CHECK_STREQ(STR(call(DIF_SUBR_INET_NTOA6, V((uintptr_t)a6))), "192.168.1.2");
	memcpy(a6, "\xfe\x80\0\0\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	CHECK_STREQ(STR(call(DIF_SUBR_INET_NTOA6, V((uintptr_t)a6))), "fe80::2");
	CHECK_NOFAULT(e);
	/* An unknown address family is an illegal operation. */
	CHECK_EQ(call(DIF_SUBR_INET_NTOP, V(99), V((uintptr_t)v4)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 99, CALL_OFFSET(2));
	/* A fault reading the address reports it. */
	CHECK_EQ(call(DIF_SUBR_INET_NTOA, V(16)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, 16, CALL_OFFSET(1));
}

/*
 * A copy whose source overlaps its destination (a by-reference variable
 * assigned from inside its own storage; found by fuzz_dif,
 * corpus/dif/crash-stgs-byref-overlapping-source) has memmove's result.  The
 * overlapping bytes are the destination's own and move directly; only the
 * part of the source outside the destination goes through the port, in one
 * call however close the two are, and a fault there is still reported at
 * the first bad byte.  A user-space source goes through the port in pieces.
 */
static void
test_copy_overlapping_memory(void)
{
	static char buf[40];
	uint64_t calls;

	env_fire(e);
	memcpy(buf, "0123456789abcdefghijklmnopqrstuvwxyzABC", 40);
	calls = testport_nofault_calls();
	CHECK(dtrace_dif_copy(&e->m, DTRACE_AS_KERNEL, (uintptr_t)buf + 1, buf, 16));
	CHECK(memcmp(buf, "123456789abcdefgghij", 20) == 0);
	CHECK_EQ(testport_nofault_calls() - calls, 1); /* the one byte past the end */
	calls = testport_nofault_calls();
	CHECK(dtrace_dif_copy(&e->m, DTRACE_AS_KERNEL, (uintptr_t)buf, buf + 5, 16));
	CHECK(memcmp(buf, "1234512345", 10) == 0);
	CHECK(memcmp(buf + 5, "123456789abcdefg", 16) == 0);
	CHECK_EQ(testport_nofault_calls() - calls, 1); /* the five bytes before */
	calls = testport_nofault_calls();
	CHECK(dtrace_dif_copy(&e->m, DTRACE_AS_KERNEL, (uintptr_t)buf, buf, 16));
	CHECK(memcmp(buf, "1234512345", 10) == 0);
	CHECK_EQ(testport_nofault_calls() - calls, 0);
	CHECK_NOFAULT(e);
	/* a large value one byte apart: still one port call */
	{
		static char big[1 << 20];
		for (size_t i = 0; i < sizeof(big); i++)
			big[i] = (char)(i * 7);
		calls = testport_nofault_calls();
		CHECK(dtrace_dif_copy(&e->m, DTRACE_AS_KERNEL, (uintptr_t)big, big + 1, sizeof(big) - 1));
		CHECK_EQ(testport_nofault_calls() - calls, 1);
		CHECK(big[0] == 0 && big[1] == 0 && big[2] == 7 && big[sizeof(big) - 1] == (char)((sizeof(big) - 2) * 7));
		CHECK_NOFAULT(e);
	}
	/* a fault in the part outside the destination: the moved bytes and those
	 * before the fault arrived, as a real copy stops there */
	memcpy(buf, "0123456789abcdefghijklmnopqrstuvwxyzABC", 40);
	testport_fault_range(DTRACE_AS_KERNEL, (uintptr_t)buf + 13, 1, DTRACEFLT_BADADDR);
	CHECK(!dtrace_dif_copy(&e->m, DTRACE_AS_KERNEL, (uintptr_t)buf + 4, buf, 12));
	testport_fault_clear();
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)buf + 13, -1); /* no DIF offset */
	CHECK(memcmp(buf, "456789abc9ab", 12) == 0);
	env_fire(e);
	/* user space: pieces no longer than the distance, memmove's order */
	memcpy(buf, "0123456789abcdefghijklmnopqrstuvwxyzABC", 40);
	calls = testport_nofault_calls();
	CHECK(dtrace_dif_copy(&e->m, DTRACE_AS_USER, (uintptr_t)buf, buf + 5, 16));
	CHECK(memcmp(buf, "0123401234", 10) == 0);
	CHECK(memcmp(buf + 5, "0123456789abcdef", 16) == 0);
	CHECK_EQ(testport_nofault_calls() - calls, 4); /* 5, 5, 5, 1 from the end */
	CHECK_NOFAULT(e);
	env_fire(e);
}

int
main(void)
{
	env_init(e, 1);
	test_copy_overlapping_memory();
	test_alloca();
	test_bcopy_and_copyinto();
	test_copyin_and_copyinstr();
	test_copyout_and_copyoutstr();
	test_memref_and_memstr();
	test_rand_progenyof_speculation();
	test_byte_order();
	test_getmajor_getminor();
	test_inet();
	call_release_all();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
