/*
 * tests/isa/sites_objdump_x86_64.c: isa_func_sites against objdump.
 *
 * The sample functions of sites_sample.c are compiled in four
 * variants (-O0; -O2; -O2 with frame pointers; -O2 with CET, so endbr64
 * and notrack jmp) and linked into this program.  We run objdump -t and
 * objdump -d on our own executable and, for each sample function, compare
 * what isa_func_sites reports on the bytes in memory with what objdump
 * shows:
 *   - the instruction boundaries must be exactly objdump's;
 *   - the return sites must be exactly those DTrace's pid provider would
 *     take on x86, worked out here from objdump's text: ret in any form,
 *     and jmp/jcc with a target outside the function; in a function with
 *     an indirect jmp (a possible jump table) only a ret right after leave
 *     or after mov %rbp,%rsp; pop %rbp.
 * The test also insists that the samples produced what it is about: tail
 * calls, jump tables, endbr64 and (from gcc) leave/ret epilogues all occur
 * somewhere.  The samples are built by the tree's compiler, gcc or clang.
 *
 * Usage: isa_sites_objdump_x86_64 OBJDUMP
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa.h"
#include "isa_test.h"
#include "sites_sample.h"

__attribute__((noinline)) int
sites_helper_a(int x)
{
	return x * 7 + 1;
}

__attribute__((noinline)) int
sites_helper_b(int x)
{
	return x ^ 0x55;
}

typedef struct sample {
	const char *name;
	const void *fn;
} sample_t;

#define SAMPLES(sfx)                                                                               \
	{"leaf_add" #sfx, (const void *)leaf_add##sfx},                                            \
	    {"sum_loop" #sfx, (const void *)sum_loop##sfx},                                        \
	    {"tail_call" #sfx, (const void *)tail_call##sfx},                                      \
	    {"cond_tail" #sfx, (const void *)cond_tail##sfx},                                      \
	    {"dispatch" #sfx, (const void *)dispatch##sfx},                                        \
	    {"early_returns" #sfx, (const void *)early_returns##sfx},                              \
	    {"big_frame" #sfx, (const void *)big_frame##sfx},                                      \
	{                                                                                          \
		"recurse" #sfx, (const void *)recurse##sfx                                         \
	}

static const sample_t samples[] = {SAMPLES(_O0), SAMPLES(_O2), SAMPLES(_O2fp), SAMPLES(_O2cet)};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

#define MAXINSN 4096

/* One instruction as objdump prints it. */
typedef struct oinsn {
	unsigned long addr;
	char mnem[16];
	char opnd[96];
} oinsn_t;

typedef struct func {
	unsigned long start, size; /* link-time address and size from objdump -t */
	bool found;
	int n;
	oinsn_t *insn;
} func_t;

static func_t funcs[NSAMPLES];
static char exe[4096];

static int
sample_index(const char *name)
{
	size_t i;

	for (i = 0; i < NSAMPLES; i++)
		if (strcmp(samples[i].name, name) == 0)
			return (int)i;
	return -1;
}

static FILE *
run_objdump(const char *objdump, const char *args)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "'%s' %s '%s'", objdump, args, exe);
	return popen(cmd, "r");
}

/* "0000000000001139 g     F .text	0000000000000014              leaf_add_O0" */
static void
read_symbols(const char *objdump)
{
	char line[1024], *name, *tab;
	FILE *f = run_objdump(objdump, "-t");
	int i;

	if (f == NULL) {
		CHECK(0, "objdump -t");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if ((name = strrchr(line, ' ')) == NULL || (i = sample_index(name + 1)) < 0)
			continue;
		if (strstr(line, " F ") == NULL || (tab = strchr(line, '\t')) == NULL)
			continue;
		funcs[i].start = strtoul(line, NULL, 16);
		funcs[i].size = strtoul(tab + 1, NULL, 16);
		funcs[i].found = true;
	}
	CHECK(pclose(f) == 0, "objdump -t failed");
}

static bool
is_prefix(const char *t)
{
	static const char *const prefixes[] = {
	    "rep", "repz", "repe", "repnz", "repne",  "bnd",    "notrack", "cs", "ds",
	    "es",  "ss",   "fs",   "gs",    "data16", "addr32", "lock",    NULL};
	int i;

	for (i = 0; prefixes[i] != NULL; i++)
		if (strcmp(t, prefixes[i]) == 0)
			return true;
	return false;
}

/* "    1139:\tpush   %rbp" (--no-show-raw-insn) */
static void
read_disassembly(const char *objdump)
{
	char line[1024], name[256], *p, *tok, *save;
	FILE *f = run_objdump(objdump, "-d --no-show-raw-insn -M att");
	func_t *cur = NULL;
	oinsn_t *oi;
	int i;

	if (f == NULL) {
		CHECK(0, "objdump -d");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (isxdigit((unsigned char)line[0])) {
			/* "0000000000001139 <leaf_add_O0>:" */
			cur = NULL;
			if ((p = strchr(line, '<')) != NULL &&
			    sscanf(p, "<%255[^>]>:", name) == 1 && (i = sample_index(name)) >= 0)
				cur = &funcs[i];
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
		/* prefixes, then the mnemonic, then the operands */
		for (tok = strtok_r(p + 2, " \t", &save); tok != NULL && is_prefix(tok);
		     tok = strtok_r(NULL, " \t", &save))
			;
		if (tok != NULL) {
			snprintf(oi->mnem, sizeof(oi->mnem), "%s", tok);
			if ((tok = strtok_r(NULL, " \t", &save)) != NULL)
				snprintf(oi->opnd, sizeof(oi->opnd), "%s", tok);
		}
		cur->n++;
	}
	CHECK(pclose(f) == 0, "objdump -d failed");
}

static bool
mnem_is(const oinsn_t *oi, const char *m)
{
	size_t n = strlen(m);

	/* objdump may add an operand-size suffix: retq, leaveq, jmpq */
	return strncmp(oi->mnem, m, n) == 0 &&
	       (oi->mnem[n] == 0 || (oi->mnem[n] == 'q' && !oi->mnem[n + 1]));
}

static bool
direct(const oinsn_t *oi, unsigned long *target)
{
	if (!isxdigit((unsigned char)oi->opnd[0]))
		return false;
	*target = strtoul(oi->opnd, NULL, 16);
	return true;
}

static bool
is_jcc(const oinsn_t *oi)
{
	return oi->mnem[0] == 'j' && !mnem_is(oi, "jmp") && strcmp(oi->mnem, "jrcxz") != 0 &&
	       strcmp(oi->mnem, "jecxz") != 0;
}

/* ---- what isa_func_sites reports ---- */

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

static int tail_calls, jump_tables, leave_rets, endbrs;

static void
check_function(const sample_t *s, const func_t *fn)
{
	static got_t got;
	size_t want_ret[MAXINSN];
	int nwant = 0, nin = 0, i, rc;
	bool table = false;
	unsigned long t, end = fn->start + fn->size;

	memset(&got, 0, sizeof(got));
	rc = isa_func_sites((const uint8_t *)s->fn, fn->size, (uintptr_t)s->fn, collect, &got);
	CHECK(rc == 0, "%s: isa_func_sites returned %d", s->name, rc);

	for (i = 0; i < fn->n; i++) {
		const oinsn_t *oi = &fn->insn[i];

		if (oi->addr >= fn->start && oi->addr < end && mnem_is(oi, "jmp") &&
		    oi->opnd[0] == '*')
			table = true;
	}
	jump_tables += table;
	if (fn->n > 0 && strcmp(fn->insn[0].mnem, "endbr64") == 0)
		endbrs++;

	for (i = 0; i < fn->n; i++) {
		const oinsn_t *oi = &fn->insn[i];
		bool after_leave = i >= 1 && mnem_is(&fn->insn[i - 1], "leave");
		bool after_pop_mov = i >= 2 && mnem_is(&fn->insn[i - 1], "pop") &&
		                     strcmp(fn->insn[i - 1].opnd, "%rbp") == 0 &&
		                     mnem_is(&fn->insn[i - 2], "mov") &&
		                     strcmp(fn->insn[i - 2].opnd, "%rbp,%rsp") == 0;
		size_t off = oi->addr - fn->start;
		bool ret = false;

		if (oi->addr >= end)
			break;
		CHECK(nin < got.ni && got.insn[nin] == off, "%s: boundary +%#zx: got +%#zx",
		      s->name, off, nin < got.ni ? got.insn[nin] : (size_t)-1);
		nin++;
		if (!table) {
			if (mnem_is(oi, "ret"))
				ret = true;
			else if ((mnem_is(oi, "jmp") || is_jcc(oi)) && direct(oi, &t) &&
			         (t < fn->start || t >= end)) {
				ret = true;
				tail_calls++;
			}
		} else if (mnem_is(oi, "ret")) {
			ret = after_leave || after_pop_mov;
		}
		if (mnem_is(oi, "ret") && after_leave)
			leave_rets++;
		if (ret)
			want_ret[nwant++] = off;
	}
	CHECK(nin == got.ni, "%s: %d boundaries, objdump shows %d", s->name, got.ni, nin);
	CHECK(nwant == got.nr, "%s: %d return sites, objdump shows %d", s->name, got.nr, nwant);
	for (i = 0; i < nwant && i < got.nr; i++)
		CHECK(want_ret[i] == got.ret[i], "%s: return site +%#zx, objdump +%#zx", s->name,
		      got.ret[i], want_ret[i]);
	if (getenv("ISA_SITES_VERBOSE") != NULL)
		printf("%-24s %4lu bytes %4d insns %2d returns%s\n", s->name, fn->size, got.ni,
		       got.nr, table ? " (jump table)" : "");
}

int
main(int argc, char **argv)
{
	ssize_t n;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJDUMP\n", argv[0]);
		return 2;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0) {
		perror("readlink /proc/self/exe");
		return 2;
	}
	exe[n] = 0;
	for (i = 0; i < NSAMPLES; i++)
		if ((funcs[i].insn = calloc(MAXINSN, sizeof(oinsn_t))) == NULL)
			return 2;
	read_symbols(argv[1]);
	read_disassembly(argv[1]);

	for (i = 0; i < NSAMPLES; i++) {
		CHECK(funcs[i].found && funcs[i].n > 0, "%s: not in objdump's output",
		      samples[i].name);
		if (funcs[i].found && funcs[i].n > 0)
			check_function(&samples[i], &funcs[i]);
	}
	/* The samples must have produced the shapes this test is about. */
	CHECK(tail_calls > 0, "no tail call among the samples");
	CHECK(jump_tables > 0, "no jump table among the samples");
#ifndef __clang__
	/* gcc's -O0 epilogue; clang's is add $n,%rsp; pop %rbp; ret */
	CHECK(leave_rets > 0, "no leave/ret epilogue among the samples");
#else
	(void)leave_rets;
#endif
	CHECK(endbrs > 0, "no endbr64 among the samples");
	return isa_test_exit("isa_sites_objdump_x86_64");
}
