/*
 * tests/isa/sites_objdump_cross.c: isa_func_sites of another ISA against
 * that ISA's objdump, on code its cross compiler produced.
 *
 * Built on this machine with isa/aarch64/insn.c or isa/riscv/insn.c (the
 * ISA named at compile time by SITES_AARCH64 or SITES_RISCV).  The script
 * run_sites_cross.sh cross-compiles sites_sample.c in four variants into a
 * static executable; here we read its symbols (objdump -t) and disassembly
 * (objdump -d, raw bytes shown), rebuild each sample function's bytes from
 * the listing, and compare what isa_func_sites reports with objdump:
 *   - the instruction boundaries must be exactly objdump's;
 *   - the return sites must be exactly those the ISA's rule names, worked
 *     out here from objdump's text:
 *       aarch64: ret, retaa, retab; br/braa/brab/braaz/brabz through x16 or
 *                x17; b, b.cond, bc.cond, cbz/cbnz, tbz/tbnz to a target
 *                outside the function;
 *       riscv:   ret (and jr ra); j and every branch to a target outside;
 *                a jr whose target objdump resolved (after auipc) outside.
 * The samples must also produce the shapes the test is about: a direct
 * tail call, an indirect jump that is not a return (jump table), and on
 * aarch64 an indirect tail call through x16/x17.
 *
 * Usage: isa_sites_objdump_<isa> OBJDUMP EXE
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fake_memory.h" /* the stepper links; nothing here steps */
#include "isa.h"
#include "isa_test.h"

#if defined(SITES_AARCH64)
#define ISA_LABEL "aarch64"
#elif defined(SITES_RISCV)
#define ISA_LABEL "riscv"
#else
#error "define SITES_AARCH64 or SITES_RISCV"
#endif

#define MAXFUNC 64
#define MAXINSN 4096

typedef struct oinsn {
	unsigned long addr;
	uint8_t bytes[4];
	uint8_t len;
	char mnem[16];
	char opnd[128];
} oinsn_t;

typedef struct func {
	char name[64];
	unsigned long start, size;
	int n;
	oinsn_t *insn;
} func_t;

static func_t funcs[MAXFUNC];
static int nfuncs;
static const char *objdump, *exe;

/* Sample functions are named <shape>_<variant>, the variant beginning
 * with O (O0, O2, O2fp, ...). */
static bool
is_sample(const char *name)
{
	const char *u = strrchr(name, '_');

	return u != NULL && u[1] == 'O' && strncmp(name, "sites_", 6) != 0;
}

static func_t *
find(const char *name)
{
	int i;

	for (i = 0; i < nfuncs; i++)
		if (strcmp(funcs[i].name, name) == 0)
			return &funcs[i];
	return NULL;
}

static FILE *
run(const char *args)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "'%s' %s '%s'", objdump, args, exe);
	return popen(cmd, "r");
}

/* "00000000004007a0 g     F .text	000000000000008c dispatch_O2" */
static void
read_symbols(void)
{
	char line[1024], *name, *tab;
	FILE *f = run("-t");

	if (f == NULL) {
		CHECK(0, "objdump -t");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if ((name = strrchr(line, ' ')) == NULL || !is_sample(name + 1) ||
		    strstr(line, " F ") == NULL || (tab = strchr(line, '\t')) == NULL ||
		    nfuncs == MAXFUNC || find(name + 1) != NULL)
			continue;
		snprintf(funcs[nfuncs].name, sizeof(funcs[nfuncs].name), "%s", name + 1);
		funcs[nfuncs].start = strtoul(line, NULL, 16);
		funcs[nfuncs].size = strtoul(tab + 1, NULL, 16);
		funcs[nfuncs].insn = calloc(MAXINSN, sizeof(oinsn_t));
		if (funcs[nfuncs].insn == NULL)
			exit(2);
		nfuncs++;
	}
	CHECK(pclose(f) == 0, "objdump -t failed");
}

/*
 * "  4007a0:\t2a0003e3 \tmov\tw3, w0" (aarch64: one 32-bit word)
 * "   106c8:\t4721                \tli\ta4,8" (riscv: one 16- or 32-bit
 * parcel, printed as a number)
 */
static void
read_disassembly(void)
{
	char line[1024], name[256], *p, *q, *r;
	FILE *f = run("-d -z");
	func_t *cur = NULL;
	oinsn_t *oi;
	unsigned long w;
	size_t nhex;

	if (f == NULL) {
		CHECK(0, "objdump -d");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (isxdigit((unsigned char)line[0])) {
			cur = NULL;
			if ((p = strchr(line, '<')) != NULL &&
			    sscanf(p, "<%255[^>]>:", name) == 1)
				cur = find(name);
			continue;
		}
		if (cur == NULL || (p = strchr(line, ':')) == NULL || p[1] != '\t')
			continue;
		if (cur->n == MAXINSN) {
			CHECK(0, "too many instructions");
			continue;
		}
		oi = &cur->insn[cur->n];
		memset(oi, 0, sizeof(*oi));
		oi->addr = strtoul(line, NULL, 16);
		w = strtoul(p + 2, &q, 16);
		nhex = (size_t)(q - (p + 2));
		if (nhex != 4 && nhex != 8) {
			CHECK(0, "%s: unexpected encoding in \"%s\"", cur->name, line);
			continue;
		}
		oi->len = (uint8_t)(nhex / 2);
		for (size_t i = 0; i < oi->len; i++)
			oi->bytes[i] = (uint8_t)(w >> (8 * i));
		/* then a tab, the mnemonic, a tab, the operands */
		if ((r = strchr(q, '\t')) != NULL) {
			r++;
			sscanf(r, "%15s", oi->mnem);
			if ((r = strchr(r, '\t')) != NULL)
				snprintf(oi->opnd, sizeof(oi->opnd), "%s", r + 1);
		}
		cur->n++;
	}
	CHECK(pclose(f) == 0, "objdump -d failed");
}

/* The address objdump resolved: the hex number just before " <". */
static bool
shown_target(const oinsn_t *oi, unsigned long *t)
{
	const char *lt = strstr(oi->opnd, " <"), *p;

	if (lt == NULL)
		return false;
	for (p = lt; p > oi->opnd && isxdigit((unsigned char)p[-1]); p--)
		;
	if (p == lt)
		return false;
	*t = strtoul(p, NULL, 16);
	return true;
}

static int tail_calls, indirect_tails, table_jumps;

/* The return-site rule, from objdump's text. */
static bool
want_return(const oinsn_t *oi, unsigned long lo, unsigned long hi)
{
	const char *m = oi->mnem;
	unsigned long t;
	bool out;

#if defined(SITES_AARCH64)
	if (!strcmp(m, "ret") || !strcmp(m, "retaa") || !strcmp(m, "retab"))
		return true;
	if (!strcmp(m, "br") || !strcmp(m, "braa") || !strcmp(m, "brab") || !strcmp(m, "braaz") ||
	    !strcmp(m, "brabz")) {
		if (!strncmp(oi->opnd, "x16", 3) || !strncmp(oi->opnd, "x17", 3)) {
			indirect_tails++;
			return true;
		}
		table_jumps++;
		return false;
	}
	if (strcmp(m, "b") && strcmp(m, "cbz") && strcmp(m, "cbnz") && strcmp(m, "tbz") &&
	    strcmp(m, "tbnz") && strncmp(m, "b.", 2) && strncmp(m, "bc.", 3))
		return false;
#else
	if (!strcmp(m, "ret") || (!strcmp(m, "jr") && !strcmp(oi->opnd, "ra")))
		return true;
	if (!strcmp(m, "jr")) {
		/* "jr 1024(t1) # 10abc <f>": resolved from the auipc before it */
		if (strchr(oi->opnd, '#') == NULL || !shown_target(oi, &t)) {
			table_jumps++;
			return false;
		}
		return t < lo || t >= hi;
	}
	if (strcmp(m, "j") && m[0] != 'b')
		return false;
#endif
	if (!shown_target(oi, &t)) {
		CHECK(0, "no target in \"%s %s\"", m, oi->opnd);
		return false;
	}
	out = t < lo || t >= hi;
	tail_calls += out;
	return out;
}

typedef struct got {
	size_t insn[MAXINSN], ret[MAXINSN];
	int ni, nr;
} got_t;

static int
collect(size_t off, int kind, void *arg)
{
	got_t *g = arg;

	if (kind == ISA_SITE_INSN && g->ni < MAXINSN)
		g->insn[g->ni++] = off;
	else if (kind == ISA_SITE_RETURN && g->nr < MAXINSN)
		g->ret[g->nr++] = off;
	return 0;
}

static void
check_function(const func_t *fn)
{
	static got_t got;
	static uint8_t code[4 * MAXINSN];
	size_t want_ret[MAXINSN], off, pos = 0;
	unsigned long end = fn->start + fn->size;
	int nwant = 0, nin = 0, i, rc;

	memset(&got, 0, sizeof(got));
	for (i = 0; i < fn->n && fn->insn[i].addr < end; i++) {
		CHECK(fn->insn[i].addr == fn->start + pos, "%s: listing has a gap at %#lx",
		      fn->name, fn->insn[i].addr);
		memcpy(code + pos, fn->insn[i].bytes, fn->insn[i].len);
		pos += fn->insn[i].len;
	}
	CHECK(pos == fn->size, "%s: listing covers %zu of %lu bytes", fn->name, pos, fn->size);
	rc = isa_func_sites(code, fn->size, fn->start, collect, &got);
	CHECK(rc == 0, "%s: isa_func_sites returned %d", fn->name, rc);

	for (i = 0; i < fn->n && fn->insn[i].addr < end; i++) {
		const oinsn_t *oi = &fn->insn[i];

		off = oi->addr - fn->start;
		CHECK(nin < got.ni && got.insn[nin] == off, "%s: boundary +%#zx: got +%#zx",
		      fn->name, off, nin < got.ni ? got.insn[nin] : (size_t)-1);
		nin++;
		if (want_return(oi, fn->start, end))
			want_ret[nwant++] = off;
	}
	CHECK(nin == got.ni, "%s: %d boundaries, objdump shows %d", fn->name, got.ni, nin);
	CHECK(nwant == got.nr, "%s: %d return sites, objdump shows %d", fn->name, got.nr, nwant);
	for (i = 0; i < nwant && i < got.nr; i++)
		CHECK(want_ret[i] == got.ret[i], "%s: return site +%#zx, objdump +%#zx", fn->name,
		      got.ret[i], want_ret[i]);
	if (getenv("ISA_SITES_VERBOSE") != NULL)
		printf("%-28s %4lu bytes %4d insns %2d returns\n", fn->name, fn->size, got.ni,
		       got.nr);
}

int
main(int argc, char **argv)
{
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OBJDUMP EXE\n", argv[0]);
		return 2;
	}
	objdump = argv[1];
	exe = argv[2];
	read_symbols();
	read_disassembly();
	CHECK(nfuncs >= 4 * 10, "only %d sample functions in %s", nfuncs, exe);
	for (i = 0; i < nfuncs; i++) {
		CHECK(funcs[i].n > 0, "%s: not in objdump's output", funcs[i].name);
		if (funcs[i].n > 0)
			check_function(&funcs[i]);
	}
	CHECK(tail_calls > 0, "no direct tail call among the samples");
	CHECK(table_jumps > 0, "no indirect jump that is not a return among the samples");
#if defined(SITES_AARCH64)
	CHECK(indirect_tails > 0, "no indirect tail call (br x16/x17) among the samples");
#else
	(void)indirect_tails;
#endif
	printf("%d functions\n", nfuncs);
	return isa_test_exit("isa_sites_objdump_" ISA_LABEL);
}
