/*
 * tests/isa/kdecode_vs_zydis.c: the kernel's x86_64 decoder
 * (isa/x86_64/insn_decode_kernel.c, built here with its isa_* names
 * prefixed kdec_) against Zydis (insn_decode.c, the user-space decoder).
 *
 * The kernel decoder may refuse anything; where it accepts, it must say
 * what Zydis says.  Over every function symbol of each ELF file named on
 * the command line (libc.so.6, the tree's executables and kernel module
 * objects):
 *   - at every instruction boundary of Zydis's linear sweep, a decode the
 *     kernel decoder accepts has Zydis's length, class flags and target,
 *     and it never accepts bytes Zydis rejects;
 *   - isa_func_sites, where the kernel decoder gets to the end, reports
 *     exactly Zydis's boundaries and return sites, and never succeeds where
 *     Zydis fails;
 *   - isa_probe_prepare, where the kernel decoder accepts, is accepted by
 *     Zydis too, with the same emulation (pi_op, pi_data) or an out-of-line
 *     copy on both sides, and the same trampoline for a plain copy; a
 *     %rip-relative copy is retargeted and must still address the same
 *     byte from the trampoline.
 * Then bytes no compiler wrote: each corpus instruction with one byte
 * changed, a prefix put in front, or cut short; random 15-byte strings;
 * and random bytes after the 0F, 0F 38 and 0F 3A escapes (where the
 * system and SSE opcodes are) behind random prefixes: whatever the kernel
 * decoder accepts, Zydis decodes alike.
 *
 * Prints the figures (functions and instructions seen, accepted, refused)
 * so the report can quote them.  Usage:
 *   isa_kdecode_vs_zydis [-n RANDOM] [-m MUTATIONS] FILE...
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "insn_ops.h"
#include "isa.h"
#include "isa_test.h"

int kdec_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out);
int kdec_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg);
int kdec_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi);
size_t kdec_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
                        size_t bufsz);

static struct {
	unsigned long funcs, zfuncs, kfuncs, kfuncs_refused;
	unsigned long insns, kinsns, krefused;
	unsigned long prep, prep_same, prep_ool_for_emul, prep_ripdisp, prep_refused;
	unsigned long mut, mut_kacc, rnd, rnd_kacc, esc, esc_kacc;
} st;

/* Distinct refused leading bytes, to show where the decoder stops. */
static unsigned long refused_op[3][256];

static unsigned
fail_budget(void)
{
	static unsigned n;

	return n++;
}

#define DIFF(...)                                                                                  \
	do {                                                                                       \
		isa_test_failures++;                                                               \
		if (fail_budget() < 60) {                                                          \
			fprintf(stderr, "FAIL ");                                                  \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

static void
hex(char *buf, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n && i < 15; i++)
		sprintf(buf + 3 * i, "%02x ", b[i]);
}

/* One decode compared; returns the kernel decoder's verdict. */
static bool
cmp_decode(const uint8_t *b, size_t avail, uintptr_t pc, const char *where)
{
	isa_insn_t z, k;
	int zr = isa_insn_decode(b, avail, pc, &z);
	int kr = kdec_insn_decode(b, avail, pc, &k);
	char h[64] = "";

	if (kr != 0)
		return false;
	hex(h, b, avail < 15 ? avail : 15);
	if (zr != 0) {
		DIFF("%s: kernel decoder accepts what Zydis rejects: %s(len %u)", where, h,
		     k.ii_len);
		return true;
	}
	if (z.ii_len != k.ii_len || z.ii_flags != k.ii_flags || z.ii_target != k.ii_target)
		DIFF("%s: %s: zydis len %u flags %#x target %#llx, kernel len %u flags %#x target "
		     "%#llx",
		     where, h, z.ii_len, z.ii_flags, (unsigned long long)z.ii_target, k.ii_len,
		     k.ii_flags, (unsigned long long)k.ii_target);
	return true;
}

typedef struct sites {
	size_t n;
	uint64_t v[1 << 16];
} sites_t;

static int
sites_cb(size_t off, int kind, void *arg)
{
	sites_t *s = arg;

	if (s->n == sizeof(s->v) / sizeof(s->v[0]))
		return 1;
	s->v[s->n++] = (uint64_t)off << 1 | (unsigned)kind;
	return 0;
}

static sites_t zs, ks;

static bool
emulated(uint8_t op)
{
	return op != X86_OP_OOL && op != X86_OP_OOL_RIP && op != X86_OP_OOL_RIPDISP;
}

static void
cmp_prepare(const uint8_t *b, size_t avail, uintptr_t pc, const char *fn, size_t off)
{
	isa_probe_insn_t z, k;
	int zr = isa_probe_prepare(b, avail, pc, &z);
	int kr = kdec_probe_prepare(b, avail, pc, &k);
	uint8_t zt[256], kt[256];
	char h[64] = "";

	hex(h, b, avail < 15 ? avail : 15);
	if (kr != 0) {
		st.prep_refused++;
		return;
	}
	st.prep++;
	if (zr != 0) {
		DIFF("%s+%#zx: prepare accepted by the kernel decoder, refused by Zydis: %s", fn,
		     off, h);
		return;
	}
	if (z.pi_len != k.pi_len || memcmp(z.pi_orig, k.pi_orig, k.pi_len) != 0) {
		DIFF("%s+%#zx: prepare lengths differ: %s", fn, off, h);
		return;
	}
	if (emulated(z.pi_op) && emulated(k.pi_op)) {
		if (z.pi_op != k.pi_op || memcmp(z.pi_data, k.pi_data, sizeof(z.pi_data)) != 0)
			DIFF("%s+%#zx: emulation differs: zydis op %u, kernel op %u: %s", fn, off,
			     z.pi_op, k.pi_op, h);
		else
			st.prep_same++;
		return;
	}
	if (emulated(k.pi_op)) {
		DIFF("%s+%#zx: kernel decoder emulates (op %u) what Zydis copies: %s", fn, off,
		     k.pi_op, h);
		return;
	}
	if (emulated(z.pi_op)) {
		st.prep_ool_for_emul++; /* more conservative: allowed */
		return;
	}
	if (k.pi_op == X86_OP_OOL) {
		if (z.pi_op != X86_OP_OOL) {
			DIFF("%s+%#zx: kernel copies as is what Zydis rewrites: %s", fn, off, h);
			return;
		}
		if (isa_probe_tramp(&z, pc, 0x1000, zt, sizeof(zt)) !=
		        kdec_probe_tramp(&k, pc, 0x1000, kt, sizeof(kt)) ||
		    memcmp(zt, kt, z.pi_tramp_len) != 0)
			DIFF("%s+%#zx: trampolines differ: %s", fn, off, h);
		else
			st.prep_same++;
		return;
	}
	/* X86_OP_OOL_RIPDISP: Zydis must see a %rip operand too; the
	 * retargeted copy, decoded at the trampoline, addresses the same byte. */
	st.prep_ripdisp++;
	if (z.pi_op != X86_OP_OOL_RIP) {
		DIFF("%s+%#zx: kernel retargets a copy Zydis sees no %%rip operand in: %s", fn, off,
		     h);
		return;
	}
	{
		uintptr_t tramp = pc + 0x10000000;
		size_t n = kdec_probe_tramp(&k, pc, tramp, kt, sizeof(kt));
		isa_insn_t a, c;

		if (n != (size_t)k.pi_len + X86_JMP_ABS_LEN ||
		    isa_insn_decode(kt, k.pi_len, tramp, &c) != 0 ||
		    isa_insn_decode(b, avail, pc, &a) != 0 || c.ii_len != a.ii_len) {
			DIFF("%s+%#zx: retargeted copy does not decode: %s", fn, off, h);
			return;
		}
		{
			int32_t d0, d1;
			size_t o = (size_t)k.pi_data[1];

			memcpy(&d0, b + o, 4);
			memcpy(&d1, kt + o, 4);
			if ((uint64_t)pc + k.pi_len + (int64_t)d0 !=
			    (uint64_t)tramp + k.pi_len + (int64_t)d1)
				DIFF("%s+%#zx: retargeted copy addresses another byte: %s", fn, off,
				     h);
		}
		if (kdec_probe_tramp(&k, pc, pc + 0x90000000ULL, kt, sizeof(kt)) != 0)
			DIFF("%s+%#zx: a trampoline out of reach was accepted: %s", fn, off, h);
	}
}

static void
one_function(const char *file, const char *name, const uint8_t *code, size_t size, uintptr_t pc)
{
	isa_insn_t z;
	size_t off;
	int zr, kr;
	char where[512];

	st.funcs++;
	snprintf(where, sizeof(where), "%s:%s", file, name);
	for (off = 0; off < size; off += z.ii_len) {
		if (isa_insn_decode(code + off, size - off, pc + off, &z) != 0) {
			/* Zydis stops here; the kernel decoder must too. */
			(void)cmp_decode(code + off, size - off, pc + off, where);
			break;
		}
		st.insns++;
		if (cmp_decode(code + off, size - off, pc + off, where)) {
			st.kinsns++;
			cmp_prepare(code + off, size - off, pc + off, where, off);
		} else {
			const uint8_t *p = code + off;

			st.krefused++;
			while (p < code + size && (*p == 0x66 || *p == 0x67 || *p == 0xf2 ||
			                           *p == 0xf3 || *p == 0xf0 || (*p & 0xf0) == 0x40))
				p++;
			if (p < code + size - 1 && *p == 0x0f)
				refused_op[p[1] == 0x38 || p[1] == 0x3a ? 2 : 1][p[1]]++;
			else if (p < code + size)
				refused_op[0][*p]++;
		}
	}
	zs.n = ks.n = 0;
	zr = isa_func_sites(code, size, pc, sites_cb, &zs);
	kr = kdec_func_sites(code, size, pc, sites_cb, &ks);
	if (zr == 0)
		st.zfuncs++;
	if (kr == 0) {
		st.kfuncs++;
		if (zr != 0)
			DIFF("%s: func_sites: kernel decoder reaches the end, Zydis does not",
			     where);
		else if (zs.n != ks.n || memcmp(zs.v, ks.v, zs.n * sizeof(zs.v[0])) != 0)
			DIFF("%s: func_sites differ (%zu vs %zu entries)", where, zs.n, ks.n);
	} else if (zr == 0) {
		st.kfuncs_refused++;
	}
}

/* ---- ELF files ------------------------------------------------------------ */

typedef struct fn {
	uint64_t key;
	const char *name;
	const uint8_t *code;
	size_t size;
	uintptr_t pc;
} fn_t;

static fn_t *fns;
static size_t nfns, capfns;

/* Corpus instructions, for the mutation pass. */
static uint8_t (*corpus)[16];
static size_t ncorpus, capcorpus;

static int
fn_order(const void *a, const void *b)
{
	const fn_t *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static const uint8_t *
map_file(const char *path)
{
	struct stat sb;
	const uint8_t *img;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0)
		return NULL;
	img = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return img == MAP_FAILED ? NULL : img;
}

static size_t
find_section(const uint8_t *img, uint32_t type)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);

	for (size_t i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == type)
			return i;
	return 0;
}

/* A stripped object's full symbol table: its debug file, found by build id
 * under /usr/lib/debug/.build-id (Debian's libc6-dbg for libc.so.6). */
static const uint8_t *
debug_image(const uint8_t *img)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);

	for (size_t i = 0; i < eh->e_shnum; i++) {
		const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(img + sh[i].sh_offset);
		const uint8_t *id;
		char path[256];
		int n;

		if (sh[i].sh_type != SHT_NOTE || nh->n_type != NT_GNU_BUILD_ID || nh->n_namesz != 4)
			continue;
		id = (const uint8_t *)(nh + 1) + 4;
		n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
		for (unsigned j = 1; j < nh->n_descsz; j++)
			n += snprintf(path + n, sizeof(path) - (size_t)n, "%02x", id[j]);
		snprintf(path + n, sizeof(path) - (size_t)n, ".debug");
		return map_file(path);
	}
	return NULL;
}

static void
one_file(const char *path)
{
	const Elf64_Ehdr *eh, *seh;
	const Elf64_Shdr *sh, *ssh;
	const uint8_t *img, *symimg;
	size_t first = nfns, i, symsec;

	if ((img = map_file(path)) == NULL) {
		CHECK(0, "cannot open %s", path);
		return;
	}
	eh = (const Elf64_Ehdr *)img;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_X86_64) {
		CHECK(0, "%s: not an x86_64 ELF file", path);
		return;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	symimg = img;
	if ((symsec = find_section(img, SHT_SYMTAB)) == 0 && eh->e_type != ET_REL) {
		const uint8_t *dbg = debug_image(img);

		if (dbg != NULL && (symsec = find_section(dbg, SHT_SYMTAB)) != 0) {
			symimg = dbg;
			printf("%s: symbols from its debug file\n", path);
		}
	}
	if (symsec == 0)
		symsec = find_section(img, SHT_DYNSYM);
	if (symsec == 0) {
		CHECK(0, "%s: no symbols", path);
		return;
	}
	seh = (const Elf64_Ehdr *)symimg;
	ssh = (const Elf64_Shdr *)(symimg + seh->e_shoff);
	{
		const Elf64_Sym *sym = (const Elf64_Sym *)(symimg + ssh[symsec].sh_offset);
		size_t nsym = ssh[symsec].sh_size / sizeof(*sym);
		const char *str = (const char *)(symimg + ssh[ssh[symsec].sh_link].sh_offset);

		for (i = 1; i < nsym; i++) {
			const Elf64_Shdr *s = NULL;
			size_t secno = 0;
			uint64_t off;
			int type = ELF64_ST_TYPE(sym[i].st_info);

			if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym[i].st_size == 0 ||
			    sym[i].st_shndx == SHN_UNDEF || sym[i].st_shndx >= SHN_LORESERVE)
				continue;
			if (eh->e_type == ET_REL) {
				if (sym[i].st_shndx >= eh->e_shnum)
					continue;
				secno = sym[i].st_shndx;
				s = &sh[secno];
				off = sym[i].st_value;
			} else {
				/* by address: the symbols may come from the debug file */
				for (size_t j = 1; j < eh->e_shnum; j++)
					if (sh[j].sh_type == SHT_PROGBITS &&
					    (sh[j].sh_flags & SHF_ALLOC) &&
					    sym[i].st_value >= sh[j].sh_addr &&
					    sym[i].st_value < sh[j].sh_addr + sh[j].sh_size)
						secno = j;
				if (secno == 0)
					continue;
				s = &sh[secno];
				off = sym[i].st_value - s->sh_addr;
			}
			if (!(s->sh_flags & SHF_EXECINSTR) || s->sh_type != SHT_PROGBITS)
				continue;
			if (off + sym[i].st_size > s->sh_size)
				continue;
			if (nfns == capfns) {
				capfns = capfns ? 2 * capfns : 4096;
				fns = realloc(fns, capfns * sizeof(*fns));
			}
			fns[nfns].key = (uint64_t)secno << 40 | off;
			fns[nfns].name = str + sym[i].st_name;
			fns[nfns].code = img + s->sh_offset + off;
			fns[nfns].size = sym[i].st_size;
			/* relocatable objects: one 4 GiB window per section */
			fns[nfns].pc = eh->e_type == ET_REL ? (uintptr_t)0xffffffff00000000ULL -
			                                          ((uintptr_t)secno << 32) + off
			                                    : sym[i].st_value;
			nfns++;
		}
	}
	/* One look at each function, whatever its aliases. */
	qsort(fns + first, nfns - first, sizeof(*fns), fn_order);
	{
		size_t w = first;

		for (i = first; i < nfns; i++)
			if (i == first || fns[i].key != fns[w - 1].key)
				fns[w++] = fns[i];
		nfns = w;
	}
	for (i = first; i < nfns; i++) {
		isa_insn_t z;
		size_t off;

		one_function(path, fns[i].name, fns[i].code, fns[i].size, fns[i].pc);
		for (off = 0; off < fns[i].size; off += z.ii_len) {
			if (isa_insn_decode(fns[i].code + off, fns[i].size - off, 0, &z) != 0)
				break;
			if (ncorpus == capcorpus) {
				capcorpus = capcorpus ? 2 * capcorpus : 1 << 16;
				corpus = realloc(corpus, capcorpus * sizeof(*corpus));
			}
			memset(corpus[ncorpus], 0x90, 16);
			memcpy(corpus[ncorpus], fns[i].code + off, z.ii_len);
			corpus[ncorpus][15] = z.ii_len;
			ncorpus++;
		}
	}
}

/* ---- Bytes no compiler wrote ------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
mutations(unsigned long n)
{
	static const uint8_t pfx[] = {0x66, 0x67, 0xf0, 0xf2, 0xf3, 0x2e, 0x3e, 0x64,
	                              0x65, 0x40, 0x41, 0x44, 0x48, 0x4c, 0x0f};
	uint8_t b[16];

	if (ncorpus == 0)
		return;
	for (unsigned long i = 0; i < n; i++) {
		const uint8_t *src = corpus[next_rand() % ncorpus];
		unsigned len = src[15], how = (unsigned)(next_rand() % 4);
		size_t avail = 15;

		memcpy(b, src, 15);
		if (how == 0) {
			b[next_rand() % len] = (uint8_t)next_rand();
		} else if (how == 1) {
			unsigned at = (unsigned)(next_rand() % len);

			b[at] ^= (uint8_t)(1u << (next_rand() % 8));
		} else if (how == 2) {
			memmove(b + 1, src, 14);
			b[0] = pfx[next_rand() % sizeof(pfx)];
		} else {
			avail = next_rand() % len; /* cut short */
		}
		st.mut++;
		if (cmp_decode(b, avail, 0x401000, "mutation"))
			st.mut_kacc++;
	}
}

static void
random_bytes(unsigned long n)
{
	uint8_t b[16];

	for (unsigned long i = 0; i < n; i++) {
		for (int j = 0; j < 16; j += 8) {
			uint64_t r = next_rand();

			memcpy(b + j, &r, 8);
		}
		st.rnd++;
		if (cmp_decode(b, 15, 0xffffffff80001000ULL, "random"))
			st.rnd_kacc++;
	}
}

/* The two- and three-byte maps, where the system and SSE opcodes are:
 * prefixes from the usual set, 0F (38|3A) and random bytes after. */
static void
escapes(unsigned long n)
{
	static const uint8_t pfx[] = {0x66, 0xf2, 0xf3, 0xf0, 0x67, 0x48, 0x41, 0x4c, 0x2e, 0x65};
	uint8_t b[16];

	for (unsigned long i = 0; i < n; i++) {
		unsigned np = (unsigned)(next_rand() % 3), at = 0;

		for (int j = 0; j < 16; j += 8) {
			uint64_t r = next_rand();

			memcpy(b + j, &r, 8);
		}
		while (at < np)
			b[at++] = pfx[next_rand() % sizeof(pfx)];
		if (at > 0 && (b[at - 1] & 0xf0) != 0x40 && next_rand() % 2)
			b[at++] = 0x48; /* REX after legacy prefixes */
		b[at++] = 0x0f;
		if (next_rand() % 4 == 0)
			b[at++] = next_rand() % 2 ? 0x38 : 0x3a;
		st.esc++;
		if (cmp_decode(b, 15, 0xffffffff80001000ULL, "escape"))
			st.esc_kacc++;
	}
}

int
main(int argc, char **argv)
{
	unsigned long nrandom = 2000000, nmut = 2000000;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			nrandom = strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
			nmut = strtoul(argv[++i], NULL, 0);
	}
	for (; i < argc; i++) {
		unsigned long f0 = st.funcs, k0 = st.kfuncs, z0 = st.zfuncs, n0 = st.insns,
		              kn0 = st.kinsns;

		one_file(argv[i]);
		printf("%s: %lu functions (Zydis decodes %lu, kernel decoder %lu); %lu "
		       "instructions, kernel decoder accepts %lu\n",
		       argv[i], st.funcs - f0, st.zfuncs - z0, st.kfuncs - k0, st.insns - n0,
		       st.kinsns - kn0);
	}
	mutations(nmut);
	random_bytes(nrandom);
	escapes(nrandom);

	printf("functions: %lu; Zydis decodes %lu to the end, the kernel decoder %lu (%.2f%%), "
	       "refuses %lu\n",
	       st.funcs, st.zfuncs, st.kfuncs, st.zfuncs ? 100.0 * st.kfuncs / st.zfuncs : 0.0,
	       st.kfuncs_refused);
	printf("instructions: %lu; kernel decoder accepts %lu (%.2f%%), refuses %lu; every "
	       "accepted one agrees unless FAILs are shown\n",
	       st.insns, st.kinsns, st.insns ? 100.0 * st.kinsns / st.insns : 0.0, st.krefused);
	printf("prepare: %lu accepted (%lu identical to Zydis, %lu copied where Zydis emulates, "
	       "%lu %%rip copies retargeted), %lu refused\n",
	       st.prep, st.prep_same, st.prep_ool_for_emul, st.prep_ripdisp, st.prep_refused);
	printf("mutated instructions: %lu, kernel decoder accepts %lu; random 15-byte strings: "
	       "%lu, accepts %lu\n",
	       st.mut, st.mut_kacc, st.rnd, st.rnd_kacc);
	printf("0F/0F38/0F3A escapes with random prefixes and bytes: %lu, accepts %lu\n", st.esc,
	       st.esc_kacc);
	if (getenv("KDEC_REFUSED") != NULL) {
		static const char *mapname[3] = {"", "0f ", "0f38/3a "};

		for (int m = 0; m < 3; m++)
			for (int o = 0; o < 256; o++)
				if (refused_op[m][o] > 0)
					printf("refused %s%02x: %lu\n", mapname[m], o,
					       refused_op[m][o]);
	}
	return isa_test_exit("isa_kdecode_vs_zydis");
}
