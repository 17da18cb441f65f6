/*
 * tests/port/isa_selftest.c: the ISA module under the Linux port's signal
 * handlers, written once for every ISA (it runs natively and, for foreign
 * ISAs, under qemu-user).
 *
 * Checks: nofault loads at every width, aligned and misaligned, from
 * mapped, PROT_NONE, unmapped and past-end-of-file (SIGBUS) memory, with
 * the right fault code and address; nofault copies and string copies;
 * copyout into read-only memory; the frame-pointer walk against the
 * compiler's own return addresses, and its refusal of bad frame pointers;
 * a breakpoint written with dtrace_port_text_write, decoded to its site,
 * its registers read through isa_regs_t, resumed, then removed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dtrace_abi.h"
#include "linux_impl.h"
#include "port_test.h"

static size_t pg;
static uint8_t *area; /* [RW page][PROT_NONE page][unmapped page] */

static void
setup_area(void)
{
	size_t i;

	area = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (i = 0; i < pg; i++)
		area[i] = (uint8_t)(i * 7 + 3);
	mprotect(area + pg, pg, PROT_NONE);
	munmap(area + 2 * pg, pg);
}

static uint64_t
expected_value(const uint8_t *p, size_t size)
{
	uint8_t b1;
	uint16_t b2;
	uint32_t b4;
	uint64_t b8;

	switch (size) {
	case 1:
		memcpy(&b1, p, 1);
		return b1;
	case 2:
		memcpy(&b2, p, 2);
		return b2;
	case 4:
		memcpy(&b4, p, 4);
		return b4;
	default:
		memcpy(&b8, p, 8);
		return b8;
	}
}

static void
test_loads(void)
{
	static const size_t widths[] = {1, 2, 4, 8};
	static const size_t offsets[] = {0, 1, 3, 8, 13, 64};
	uintptr_t fa;
	uint64_t v;
	size_t w, o, size, off;
	int rc;

	for (w = 0; w < 4; w++) {
		size = widths[w];
		for (o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
			off = offsets[o];
			v = 0xdeadbeef;
			fa = 0;
			rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)area + off, size, &v, &fa);
			if (off % size == 0)
				CHECK(rc == 0 && v == expected_value(area + off, size),
				      "aligned load%zu at +%zu: rc %d v %#llx", size, off, rc,
				      (unsigned long long)v);
			else
				/* Misaligned: the value, or BADALIGN where the
				 * processor refuses (RISC-V without Zicclsm). */
				CHECK((rc == 0 && v == expected_value(area + off, size)) ||
					  (rc == DTRACEFLT_BADALIGN &&
					   fa == (uintptr_t)area + off),
				      "misaligned load%zu at +%zu: rc %d", size, off, rc);
			/* PROT_NONE and unmapped pages */
			rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)area + pg + off, size, &v,
					      &fa);
			CHECK((rc == DTRACEFLT_BADADDR && fa == (uintptr_t)area + pg + off) ||
				  (off % size != 0 && rc == DTRACEFLT_BADALIGN),
			      "PROT_NONE load%zu: rc %d fa %#lx", size, rc, (unsigned long)fa);
			rc = dtrace_port_load(DTRACE_AS_USER, (uintptr_t)area + 2 * pg + off, size,
					      &v, &fa);
			CHECK((rc == DTRACEFLT_BADADDR && fa == (uintptr_t)area + 2 * pg + off) ||
				  (off % size != 0 && rc == DTRACEFLT_BADALIGN),
			      "unmapped load%zu: rc %d", size, rc);
		}
		rc = dtrace_port_load(DTRACE_AS_KERNEL, 0, size, &v, &fa);
		CHECK(rc == DTRACEFLT_BADADDR && fa == 0, "NULL load%zu: rc %d", size, rc);
	}
	/* A misaligned load that runs from a mapped page into PROT_NONE. */
	rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)area + pg - 4, 8, &v, &fa);
	CHECK((rc == DTRACEFLT_BADADDR && fa >= (uintptr_t)area + pg - 4 &&
	       fa < (uintptr_t)area + pg + 4) ||
		      rc == DTRACEFLT_BADALIGN,
	      "page-crossing load: rc %d fa %#lx", rc, (unsigned long)fa);
	/* An address no process can map (top half / non-canonical). */
	rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)1 << 63, 8, &v, &fa);
	CHECK(rc == DTRACEFLT_BADADDR && fa == (uintptr_t)1 << 63, "high load: rc %d fa %#lx", rc,
	      (unsigned long)fa);
	rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)area, 3, &v, &fa);
	CHECK(rc == DTRACEFLT_ILLOP, "load of 3 bytes: rc %d", rc);
}

static void
test_sigbus(void)
{
	int fd = memfd_create("isa-selftest", 0);
	uint8_t *p;
	uintptr_t fa;
	uint64_t v;
	int rc;

	if (fd < 0 || ftruncate(fd, (off_t)pg) != 0) {
		CHECK(0, "memfd");
		return;
	}
	p = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap memfd");
	if (p == MAP_FAILED)
		return;
	rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)p + pg + 8, 8, &v, &fa);
	CHECK(rc == DTRACEFLT_BADADDR && fa == (uintptr_t)p + pg + 8,
	      "load past end of file (SIGBUS): rc %d", rc);
	rc = dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)p + 8, 8, &v, &fa);
	CHECK(rc == 0 && v == 0, "load inside file: rc %d", rc);
	munmap(p, 2 * pg);
	close(fd);
}

static void
test_copies(void)
{
	char buf[256], *str = (char *)area + pg - 6;
	uint8_t *ro;
	uintptr_t fa;
	size_t copied;
	int rc;

	rc = dtrace_port_copyin(DTRACE_AS_USER, (uintptr_t)area + 5, buf, 200, &fa);
	CHECK(rc == 0 && memcmp(buf, area + 5, 200) == 0, "copyin: rc %d", rc);
	rc = dtrace_port_copyin(DTRACE_AS_USER, (uintptr_t)area + pg - 100, buf, 200, &fa);
	CHECK(rc == DTRACEFLT_BADADDR && fa >= (uintptr_t)area + pg - 100 &&
		      fa < (uintptr_t)area + pg + 100,
	      "copyin into PROT_NONE: rc %d fa %#lx", rc, (unsigned long)fa);

	memcpy(area + 100, "hello", 6);
	rc = dtrace_port_copyinstr(DTRACE_AS_USER, (uintptr_t)area + 100, buf, sizeof(buf),
				   &copied, &fa);
	CHECK(rc == 0 && copied == 6 && strcmp(buf, "hello") == 0, "copyinstr: rc %d copied %zu",
	      rc, copied);
	rc = dtrace_port_copyinstr(DTRACE_AS_USER, (uintptr_t)area + 100, buf, 3, &copied, &fa);
	CHECK(rc == 0 && copied == 3 && memcmp(buf, "hel", 3) == 0,
	      "copyinstr bounded: rc %d copied %zu", rc, copied);
	memset(str, 'x', 6); /* no NUL before the PROT_NONE page */
	rc = dtrace_port_copyinstr(DTRACE_AS_USER, (uintptr_t)str, buf, sizeof(buf), &copied, &fa);
	CHECK(rc == DTRACEFLT_BADADDR && fa == (uintptr_t)area + pg,
	      "copyinstr into PROT_NONE: rc %d fa %#lx", rc, (unsigned long)fa);

	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rc = dtrace_port_copyout("abc", (uintptr_t)ro + 16, 3, &fa);
	CHECK(rc == DTRACEFLT_BADADDR && fa == (uintptr_t)ro + 16, "copyout to read-only: rc %d",
	      rc);
	rc = dtrace_port_copyout("abc", (uintptr_t)area + 16, 3, &fa);
	CHECK(rc == 0 && memcmp(area + 16, "abc", 3) == 0, "copyout: rc %d", rc);
	munmap(ro, pg);
}

/* ---- stack walk ------------------------------------------------------- */

#define NEST 5
static uint64_t nest_ra[NEST + 1];
static uint64_t walked[16];
static int nwalked;

static int __attribute__((noinline))
nest(int depth)
{
	int r;

	nest_ra[depth] = (uint64_t)(uintptr_t)__builtin_return_address(0);
	if (depth == NEST) {
		nwalked = isa_fp_walk((uintptr_t)__builtin_frame_address(0), walked, 16);
		return nwalked;
	}
	r = nest(depth + 1);
	__asm__ __volatile__("" ::: "memory"); /* keep the call a call */
	return r;
}

static void
test_stack(void)
{
	int i;

	nest(0);
	CHECK(nwalked >= NEST + 1, "walked %d frames", nwalked);
	for (i = 0; i <= NEST && i < nwalked; i++)
		CHECK(walked[i] == nest_ra[NEST - i], "frame %d: %#llx != %#llx", i,
		      (unsigned long long)walked[i], (unsigned long long)nest_ra[NEST - i]);
	CHECK(isa_fp_walk(0, walked, 16) == 0, "NULL frame pointer");
	CHECK(isa_fp_walk((uintptr_t)area + pg + 64, walked, 16) == 0, "PROT_NONE frame pointer");
	CHECK(isa_fp_walk((uintptr_t)area + 2 * pg + 64, walked, 16) == 0,
	      "unmapped frame pointer");
	CHECK(isa_fp_walk((uintptr_t)area + 3, walked, 16) == 0, "misaligned frame pointer");
	CHECK(isa_fp_walk((uintptr_t)__builtin_frame_address(0), NULL, 16) >= 1,
	      "counting walk");

	/* two frame records, the outer one's return address in page zero (a
	 * word of a frame that keeps no record): one frame, then the walk ends */
	{
		static uint64_t fake[64] __attribute__((aligned(16)));
		uintptr_t f1 = (uintptr_t)&fake[20], f2 = (uintptr_t)&fake[40];

		*(uint64_t *)(f1 + ISA_FRAME_RA_OFF) = 0x12345678;
		*(uint64_t *)(f1 + ISA_FRAME_FP_OFF) = f2;
		*(uint64_t *)(f2 + ISA_FRAME_RA_OFF) = 3;
		*(uint64_t *)(f2 + ISA_FRAME_FP_OFF) = f2 + 64;
		CHECK(isa_fp_walk(f1, walked, 16) == 1 && walked[0] == 0x12345678,
		      "a return address in page zero ends the walk");
	}
}

/* ---- breakpoints ------------------------------------------------------ */

static uintptr_t bp_site, bp_resume;
static int bp_hits;
static uint64_t bp_arg0;

static bool
on_breakpoint(uintptr_t site, ucontext_t *uc)
{
	isa_regs_t regs;

	if (site != bp_site)
		return false;
	bp_hits++;
	linux_mcontext_to_regs(uc, &regs);
	bp_arg0 = regs.r[isa_arg_regs[0]];
	CHECK(isa_breakpoint_site(isa_regs_pc(&regs)) == site, "regs PC decodes to the site");
	linux_mcontext_set_pc(uc, bp_resume);
	return true;
}

static void
test_breakpoint(void)
{
	uint8_t *code = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t brk[8];
	size_t blen;
	void (*fn)(uint64_t);
	int rc;

	memcpy(code, isa_insn_nop, isa_insn_nop_len);
	memcpy(code + isa_insn_nop_len, isa_insn_ret, isa_insn_ret_len);
	__builtin___clear_cache((char *)code, (char *)code + 16);
	mprotect(code, pg, PROT_READ | PROT_EXEC);
	fn = (void (*)(uint64_t))(uintptr_t)code;
	fn(1); /* plain: nop, ret */

	blen = isa_breakpoint_insn(isa_insn_nop_len, brk, sizeof(brk));
	CHECK(blen > 0 && blen <= isa_insn_nop_len, "breakpoint length %zu", blen);
	bp_site = (uintptr_t)code;
	bp_resume = (uintptr_t)code + isa_insn_nop_len;
	linux_trap_set_breakpoint_handler(on_breakpoint);
	rc = dtrace_port_text_write(NULL, (uintptr_t)code, brk, blen);
	CHECK(rc == 0, "text_write breakpoint: %d", rc);
	CHECK(memcmp(code, brk, blen) == 0, "breakpoint bytes in place");
	fn(0x1234);
	CHECK(bp_hits == 1 && bp_arg0 == 0x1234, "breakpoint hit %d arg0 %#llx", bp_hits,
	      (unsigned long long)bp_arg0);
	rc = dtrace_port_text_write(NULL, (uintptr_t)code, isa_insn_nop, isa_insn_nop_len);
	CHECK(rc == 0, "text_write restore: %d", rc);
	fn(2);
	CHECK(bp_hits == 1, "restored instruction does not trap");
	{
		uint8_t back[16];

		CHECK(dtrace_port_text_read(NULL, (uintptr_t)code, back, isa_insn_nop_len) == 0 &&
			      memcmp(back, isa_insn_nop, isa_insn_nop_len) == 0,
		      "text_read sees the restored instruction");
		CHECK(dtrace_port_text_read(NULL, 8, back, 4) == DTRACE_EFAULT,
		      "text_read of an unmapped address fails");
	}
	linux_trap_set_breakpoint_handler(NULL);
	munmap(code, pg);
}

/*
 * A write across two pages of different protections leaves each page with
 * its own: the first still executes (it starts with a return), the second
 * still refuses stores.  Checked by behaviour, not /proc/self/maps, which
 * qemu-user does not report page by page.
 */
static void
test_text_write_across_pages(void)
{
	uint8_t *two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const uint8_t bytes[4] = {0xa1, 0xb2, 0xc3, 0xd4};
	uintptr_t fault_addr = 0;
	void (*fn)(uint64_t);

	CHECK(two != MAP_FAILED, "mmap");
	if (two == MAP_FAILED)
		return;
	memcpy(two, isa_insn_ret, isa_insn_ret_len);
	__builtin___clear_cache((char *)two, (char *)two + isa_insn_ret_len);
	mprotect(two, pg, PROT_READ | PROT_EXEC);
	mprotect(two + pg, pg, PROT_READ);
	CHECK(dtrace_port_text_write(NULL, (uintptr_t)(two + pg - 2), bytes, 4) == 0,
	      "text_write across pages");
	CHECK(memcmp(two + pg - 2, bytes, 4) == 0, "bytes across pages in place");
	fn = (void (*)(uint64_t))(uintptr_t)two;
	fn(3); /* a first page left without PROT_EXEC would kill the test here */
	CHECK(dtrace_port_copyout(bytes, (uintptr_t)(two + pg + 8), 1, &fault_addr) != 0 &&
		      fault_addr == (uintptr_t)(two + pg + 8),
	      "the second page is read-only again");
	munmap(two, 2 * pg);
}

int
main(void)
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	setup_area();
	if (linux_trap_install() != 0) {
		fprintf(stderr, "cannot install handlers\n");
		return 1;
	}
	printf("isa %s\n", isa_name);
	test_loads();
	test_sigbus();
	test_copies();
	test_stack();
	test_breakpoint();
	test_text_write_across_pages();
	TEST_DONE();
}
