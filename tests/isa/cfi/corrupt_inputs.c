/*
 * tests/isa/cfi/corrupt_inputs.c: isa_cfi_walk must end cleanly, with a
 * bounded count, on any unwind data and any stack.
 *
 * A corrupt or hostile process can hand the walker anything: the module
 * table comes from the loader's view of memory, which the process can
 * scribble over.  Cases:
 *   - .eh_frame_hdr at garbage, unmapped, PROT_NONE, near-NULL,
 *     non-canonical, and straddling the end of a mapping;
 *   - a plausible header whose count is huge and whose table runs into
 *     unmapped memory; table entries whose FDE pointers are out of range
 *     (unmapped, garbage, a CIE, misaligned into another FDE);
 *   - FDEs with huge lengths, a CIE pointer to nowhere, an unterminated
 *     augmentation string;
 *   - a CFA program of endless remember/restore pairs and nops (the
 *     instruction bound ends it);
 *   - random byte flips in a valid image (fuzzing), and random registers
 *     against the real modules of this process (libc's real CFI over a
 *     garbage stack).
 * Every walk must return a count in [1, max] without crashing; the
 * nofault handler must have been used (the faults were real).
 */
#include "cfi_test.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cfi_image.h"

#define MAXPCS 32

static uint64_t stk[4096] __attribute__((aligned(16)));
static uint64_t worst_ns;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
walk_mods(const isa_cfi_module_t *mods, size_t n, uint64_t pc, uint64_t sp, uint64_t fp, int max)
{
	uint64_t pcs[MAXPCS + 8], t0, dt;
	isa_regs_t r;
	int got, i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < ISA_NREGS; i++)
		r.r[i] = sp + 8 * (uint64_t)i; /* every register points somewhere */
	r.r[ISA_REG_PC] = pc;
	r.r[ISA_REG_SP] = sp;
	r.r[ISA_REG_FP] = fp;
	pcs[max] = 0x5a5a5a5a;
	t0 = now_ns();
	got = isa_cfi_walk(&r, mods, n, pcs, max);
	dt = now_ns() - t0;
	if (dt > worst_ns)
		worst_ns = dt;
	CHECK(got >= 1 && got <= max, "count %d with max %d", got, max);
	CHECK(pcs[max] == 0x5a5a5a5a, "wrote past max");
	return got;
}

static int
walk_at(uintptr_t hdr, uint64_t pc, uint64_t sp)
{
	isa_cfi_module_t m = {TEXT(0), TEXT(IMG_TEXT), hdr};

	return walk_mods(&m, 1, pc, sp, 0, MAXPCS);
}

static uint8_t *page; /* [RW][PROT_NONE][unmapped] */
static size_t pg;

static void
test_bad_headers(void)
{
	static uint8_t junk[4096];
	size_t i;
	uint64_t sp = (uint64_t)(uintptr_t)&stk[2000];
	int before = cfi_test_nofaults;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	walk_at((uintptr_t)junk, TEXT(0x100), sp);
	walk_at((uintptr_t)page + pg, TEXT(0x100), sp);     /* PROT_NONE */
	walk_at((uintptr_t)page + 2 * pg, TEXT(0x100), sp); /* unmapped */
	walk_at(0x10, TEXT(0x100), sp);
	walk_at((uintptr_t)1 << 63, TEXT(0x100), sp);
	walk_at(~(uintptr_t)0 - 2, TEXT(0x100), sp);
	/* A header whose last bytes run into the PROT_NONE page. */
	memcpy(page + pg - 6, (const uint8_t[]){1, 0x1b, 0x03, 0x3b, 0, 0}, 6);
	walk_at((uintptr_t)page + pg - 6, TEXT(0x100), sp);
	CHECK(cfi_test_nofaults > before, "no nofault fault was taken");
}

/* A header with `count` entries at `table` (datarel offsets written by
 * the caller), placed at the end of the RW page. */
static uintptr_t
header_at_page_end(uint32_t count, size_t entries)
{
	uint8_t *h = page + pg - 12 - 8 * entries;

	h[0] = 1;
	h[1] = 0x1b;
	h[2] = 0x03;
	h[3] = 0x3b;
	memset(h + 4, 0, 4);
	memcpy(h + 8, &count, 4);
	return (uintptr_t)h;
}

static void
put_entry(uintptr_t hdr, size_t i, uint64_t loc, uint64_t fde)
{
	int32_t v;

	v = (int32_t)(loc - hdr);
	memcpy((uint8_t *)hdr + 12 + 8 * i, &v, 4);
	v = (int32_t)(fde - hdr);
	memcpy((uint8_t *)hdr + 12 + 8 * i + 4, &v, 4);
}

static void
test_bad_tables(void)
{
	uint64_t sp = (uint64_t)(uintptr_t)&stk[2000];
	uintptr_t h;
	int i;

	/* A count of 2^28 entries, 2 of them mapped: the search runs into
	 * the PROT_NONE page. */
	h = header_at_page_end(1u << 28, 2);
	put_entry(h, 0, TEXT(0), TEXT(0));
	put_entry(h, 1, TEXT(0x10), TEXT(0));
	walk_at(h, TEXT(0x100), sp);
	walk_at(h, TEXT(0x8), sp);
	/* count 0, and a count over the bound */
	h = header_at_page_end(0, 0);
	walk_at(h, TEXT(0x100), sp);
	h = header_at_page_end(0xffffffffu, 0);
	walk_at(h, TEXT(0x100), sp);
	/* FDE pointers out of range: unmapped, PROT_NONE, into the text
	 * (zeros: a terminator), into the header itself, 2 GiB away. */
	h = header_at_page_end(5, 5);
	put_entry(h, 0, TEXT(0x000), (uintptr_t)page + 2 * pg + 64);
	put_entry(h, 1, TEXT(0x100), (uintptr_t)page + pg + 64);
	put_entry(h, 2, TEXT(0x200), TEXT(0x40));
	put_entry(h, 3, TEXT(0x300), h);
	put_entry(h, 4, TEXT(0x400), h + 0x7fffff00);
	for (i = 0; i < 5; i++)
		walk_at(h, TEXT(0x100 * (unsigned)i + 8), sp);
	/* Unsorted entries */
	h = header_at_page_end(3, 3);
	put_entry(h, 0, TEXT(0x300), TEXT(0x40));
	put_entry(h, 1, TEXT(0x100), TEXT(0x40));
	put_entry(h, 2, TEXT(0x200), TEXT(0x40));
	walk_at(h, TEXT(0x250), sp);
	/* An unsupported table encoding (uleb128: no binary search) */
	h = header_at_page_end(1, 1);
	((uint8_t *)h)[3] = 0x31;
	walk_at(h, TEXT(0x8), sp);
}

/* Raw FDEs written by hand into the RW page and listed in a header. */
static void
test_bad_entries(void)
{
	uint64_t sp = (uint64_t)(uintptr_t)&stk[2000];
	uint8_t *e = page + 1024;
	uintptr_t h;
	uint32_t v;

	/* An FDE claiming 0xfffffff0 bytes. */
	memset(page + 1024, 0, 512);
	v = 0xfffffff0;
	memcpy(e, &v, 4);
	h = header_at_page_end(1, 1);
	put_entry(h, 0, TEXT(0), (uintptr_t)e);
	walk_at(h, TEXT(0x8), sp);
	/* 64-bit length 2^63 */
	v = 0xffffffff;
	memcpy(e, &v, 4);
	memcpy(e + 4, &(uint64_t){(uint64_t)1 << 63}, 8);
	walk_at(h, TEXT(0x8), sp);
	/* A CIE pointer to unmapped memory, and to before address 0. */
	v = 16;
	memcpy(e, &v, 4);
	v = (uint32_t)(((uintptr_t)e + 4) - ((uintptr_t)page + 2 * pg));
	memcpy(e + 4, &v, 4);
	walk_at(h, TEXT(0x8), sp);
	v = 0xfffffff0;
	memcpy(e + 4, &v, 4);
	walk_at(h, TEXT(0x8), sp);
	/* A CIE whose augmentation string never ends (runs to PROT_NONE). */
	{
		uint8_t *cie = page + pg - 40;

		v = 36;
		memcpy(cie, &v, 4);
		memset(cie + 4, 0, 4);
		cie[8] = 1;
		memset(cie + 9, 'z', 31);
		v = 16;
		memcpy(e, &v, 4);
		v = (uint32_t)(((uintptr_t)e + 4) - (uintptr_t)cie);
		memcpy(e + 4, &v, 4);
		walk_at(h, TEXT(0x8), sp);
	}
}

/* A program of n remember/restore pairs, then nops: the walk gives up on
 * the frame (instruction bound) or finishes it, never loops. */
static void
test_long_programs(void)
{
	static uint8_t prog[40000];
	static const uint8_t std[] = {I_DEF_CFA(ISA_DWARF_SP, 8), I_OFFSET(ISA_DWARF_RA, 1)};
	uint64_t sp = (uint64_t)(uintptr_t)&stk[2000];
	isa_cfi_module_t m;
	img_cie_t c;
	size_t i;
	uint64_t t0, dt;

	img_n = 0;
	img_nfdes = 0;
	c = img_cie(std, sizeof(std));
	for (i = 0; i + 1 < sizeof(prog); i += 2) {
		prog[i] = I_REMEMBER;
		prog[i + 1] = I_RESTORE_STATE;
	}
	img_fde(c, TEXT(0x100), 0x100, prog, sizeof(prog) / 2);
	memset(prog, 0, sizeof(prog)); /* nops */
	img_fde(c, TEXT(0x200), 0x100, prog, 30000);
	m = img_finish();
	stk[2000] = TEXT(0x110);
	t0 = now_ns();
	CHECK(walk_mods(&m, 1, TEXT(0x101), sp, 0, MAXPCS) == 1,
	      "20000 remember/restore instructions were run");
	CHECK(walk_mods(&m, 1, TEXT(0x201), sp, 0, MAXPCS) == 1, "30000 nops were run");
	dt = now_ns() - t0;
	printf("two over-long programs refused in %llu us\n", (unsigned long long)(dt / 1000));
}

/* xorshift: reproducible */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A small valid image, then many walks with a few of its bytes changed. */
static void
test_fuzz_image(void)
{
	static uint8_t eh_copy[IMG_EH], hdr_copy[sizeof(img_hdr)];
	static const uint8_t std[] = {I_DEF_CFA(ISA_DWARF_SP, 8), I_OFFSET(ISA_DWARF_RA, 1)};
	static const uint8_t body[] = {I_ADV(1),
	                               I_DEF_CFA_OFFSET(32),
	                               I_OFFSET(ISA_DWARF_FP, 2),
	                               I_ADV(2),
	                               I_REMEMBER,
	                               I_DEF_CFA_OFFSET(8),
	                               I_ADV(1),
	                               I_RESTORE_STATE,
	                               I_ADV(3),
	                               0x0f,
	                               0x02,
	                               0x70,
	                               0x08};
	static const uint8_t zplr[] = {0x9b, 1, 2, 3, 4, 0x1b, 0x1b};
	isa_cfi_module_t m;
	img_cie_t c, c2;
	size_t used, k, at;
	int it, j, flips;
	uint64_t pc, sp;

	img_n = 0;
	img_nfdes = 0;
	c = img_cie(std, sizeof(std));
	c2 = img_cie_full(1, false, "zPLR", 1, -8, ISA_DWARF_RA, 0x1b, zplr, sizeof(zplr), std,
	                  sizeof(std));
	for (k = 0; k < 64; k++)
		img_fde_full(k % 2 ? c : c2, TEXT(0x40 * k), 0x40, (const uint8_t[]){1, 2, 3, 4},
		             k % 2 ? 0 : 4, body, sizeof(body), false);
	m = img_finish();
	used = img_n;
	memcpy(eh_copy, img_eh, used);
	memcpy(hdr_copy, img_hdr, sizeof(img_hdr));
	/* A stack whose words are return addresses into the image, stack
	 * addresses, or junk. */
	for (k = 0; k < 4096; k++) {
		switch (rnd() % 3) {
		case 0:
			stk[k] = TEXT(rnd() % (0x40 * 64));
			break;
		case 1:
			stk[k] = (uint64_t)(uintptr_t)&stk[rnd() % 4096];
			break;
		default:
			stk[k] = rnd();
		}
	}
	for (it = 0; it < 20000; it++) {
		flips = 1 + (int)(rnd() % 4);
		for (j = 0; j < flips; j++) {
			if (rnd() % 4 == 0) {
				at = rnd() % (12 + 8 * 64);
				img_hdr[at] ^= (uint8_t)(1u << (rnd() % 8));
			} else {
				at = rnd() % used;
				img_eh[at] = (uint8_t)rnd();
			}
		}
		pc = TEXT(rnd() % (0x40 * 64 + 0x40));
		sp = (uint64_t)(uintptr_t)&stk[rnd() % 4000];
		walk_mods(&m, 1, pc, sp, (uint64_t)(uintptr_t)&stk[rnd() % 4096],
		          1 + (int)(rnd() % MAXPCS));
		memcpy(img_eh, eh_copy, used);
		memcpy(img_hdr, hdr_copy, sizeof(img_hdr));
	}
}

/* The real modules of this process, the real CFI of libc, and junk
 * registers: PCs anywhere in each module's text, stacks of junk. */
static void
test_random_registers(void)
{
	static cfi_modtab_t t;
	uint64_t pc, sp;
	size_t k;
	int it;

	cfi_modules(&t);
	CHECK(t.mt_n >= 1, "%zu modules", t.mt_n);
	for (k = 0; k < 4096; k++)
		stk[k] = rnd() % 2 ? rnd() : t.mt_mods[rnd() % t.mt_n].cm_lo + rnd() % 4096;
	for (it = 0; it < 20000; it++) {
		const isa_cfi_module_t *m = &t.mt_mods[rnd() % t.mt_n];

		pc = m->cm_lo + rnd() % (m->cm_hi - m->cm_lo);
		switch (rnd() % 4) {
		case 0:
			sp = (uint64_t)(uintptr_t)&stk[rnd() % 4096];
			break;
		case 1:
			sp = (uint64_t)(uintptr_t)page + rnd() % (3 * pg);
			break;
		case 2:
			sp = rnd();
			break;
		default:
			sp = (uint64_t)(uintptr_t)&stk[4090]; /* runs off the end */
		}
		walk_mods(t.mt_mods, t.mt_n, pc, sp, (uint64_t)(uintptr_t)&stk[rnd() % 4096],
		          MAXPCS);
	}
}

int
main(void)
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	page = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	mprotect(page + pg, pg, PROT_NONE);
	munmap(page + 2 * pg, pg);
	cfi_install_nofault_handler();

	test_bad_headers();
	test_bad_tables();
	test_bad_entries();
	test_long_programs();
	test_fuzz_image();
	test_random_registers();
	printf("%d nofault faults taken; slowest walk %llu us\n", (int)cfi_test_nofaults,
	       (unsigned long long)(worst_ns / 1000));
	TEST_DONE();
}
