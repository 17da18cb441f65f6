/*
 * compile_validate.c: every DIFO the D compiler emits passes the core's
 * validator.
 *
 * A corpus of programs covering every construct the compiler supports is
 * compiled against the fixed probe list; each DOF is walked the way the
 * core's DOF loader walks it (ECB descriptions, predicate and action DIFO
 * headers, their DIF, integer, string and variable tables) and each DIFO is
 * handed to dtrace_difo_validate() with full privilege.  A refusal is a
 * compiler bug: the test prints the program, the reason and the -S listing.
 * Variables must also agree across the DIFOs of one program (one type per
 * id and scope), as the core requires of one consumer.
 */
#include <stdlib.h>

#include "compile_probes.h"
#include "dif/dif_impl.h"

static int failures, checks;

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		failures++;                                                                        \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fprintf(stderr, "\n");                                                             \
	} while (0)

static const dof_sec_t *
sec(const dt_cprog_t *p, uint32_t i)
{
	const dof_hdr_t *h = p->dof;
	if (i >= h->dofh_secnum)
		return NULL;
	return (const dof_sec_t *)((const char *)p->dof + h->dofh_secoff + (size_t)i * h->dofh_secsize);
}

static const void *
secdata(const dt_cprog_t *p, const dof_sec_t *s)
{
	return (const char *)p->dof + s->dofs_offset;
}

#define MAXVARS 256
static dtrace_difv_t seen[MAXVARS];
static int nseen;

/* Build the dtrace_difo_t the core would from DIFOHDR section `i`. */
static int
check_difo(const char *src, const dt_cprog_t *p, uint32_t i)
{
	const dof_sec_t *hs = sec(p, i);
	dtrace_difo_t d;
	char why[256];

	if (hs == NULL || hs->dofs_type != DOF_SECT_DIFOHDR) {
		FAIL("<%s>: section %u is not a DIFO header", src, i);
		return -1;
	}
	const dof_difohdr_t *dh = secdata(p, hs);
	uint32_t nlinks = (uint32_t)((hs->dofs_size - offsetof(dof_difohdr_t, dofd_links)) / sizeof(dof_secidx_t));
	memset(&d, 0, sizeof(d));
	d.dtdo_rtype = dh->dofd_rtype;
	for (uint32_t l = 0; l < nlinks; l++) {
		const dof_sec_t *s = sec(p, dh->dofd_links[l]);
		if (s == NULL) {
			FAIL("<%s>: bad DIFO link", src);
			return -1;
		}
		switch (s->dofs_type) {
		case DOF_SECT_DIF:
			d.dtdo_buf = (dif_instr_t *)secdata(p, s);
			d.dtdo_len = (uint32_t)(s->dofs_size / sizeof(dif_instr_t));
			break;
		case DOF_SECT_INTTAB:
			d.dtdo_inttab = (uint64_t *)secdata(p, s);
			d.dtdo_intlen = (uint32_t)(s->dofs_size / sizeof(uint64_t));
			break;
		case DOF_SECT_STRTAB:
			d.dtdo_strtab = (char *)secdata(p, s);
			d.dtdo_strlen = (uint32_t)s->dofs_size;
			break;
		case DOF_SECT_VARTAB:
			d.dtdo_vartab = (dtrace_difv_t *)secdata(p, s);
			d.dtdo_varlen = (uint32_t)(s->dofs_size / sizeof(dtrace_difv_t));
			break;
		default:
			FAIL("<%s>: unexpected DIFO link type %u", src, s->dofs_type);
			return -1;
		}
	}
	checks++;
	if (dtrace_difo_validate(&d, NULL, DIF_DIR_NREGS, DTRACE_PRIV_ALL | DTRACE_DIF_DESTRUCTIVE_OK,
				 why, sizeof(why)) != 0) {
		FAIL("<%s>: DIFO in section %u refused: %s", src, i, why);
		return -1;
	}
	/* one definition per variable across the program's DIFOs */
	for (uint32_t v = 0; v < d.dtdo_varlen; v++) {
		const dtrace_difv_t *dv = &d.dtdo_vartab[v];
		int k;
		for (k = 0; k < nseen; k++)
			if (seen[k].dtdv_id == dv->dtdv_id && seen[k].dtdv_scope == dv->dtdv_scope)
				break;
		if (k == nseen) {
			if (nseen < MAXVARS)
				seen[nseen++] = *dv;
			continue;
		}
		checks++;
		if (seen[k].dtdv_kind != dv->dtdv_kind || seen[k].dtdv_type.dtdt_kind != dv->dtdv_type.dtdt_kind ||
		    seen[k].dtdv_type.dtdt_flags != dv->dtdv_type.dtdt_flags ||
		    seen[k].dtdv_type.dtdt_size != dv->dtdv_type.dtdt_size) {
			FAIL("<%s>: variable %s (id %u) has two definitions", src, d.dtdo_strtab + dv->dtdv_name,
			     dv->dtdv_id);
			return -1;
		}
	}
	return 0;
}

static void
validate(const char *src, uint32_t flags)
{
	dt_copts_t o;
	ct_opts(&o, flags | DT_C_DIFV);
	dt_cprog_t *p = dt_compile_string(src, &o);
	checks++;
	if (p == NULL || p->err.failed) {
		FAIL("<%s>: compile failed: %s", src, p != NULL ? p->err.text : "NULL");
		dt_cprog_free(p);
		return;
	}
	const dof_hdr_t *h = p->dof;
	int bad = 0, ndifo = 0;
	nseen = 0;
	for (uint32_t i = 0; i < h->dofh_secnum; i++) {
		const dof_sec_t *s = sec(p, i);
		if (s->dofs_type != DOF_SECT_ECBDESC)
			continue;
		const dof_ecbdesc_t *e = secdata(p, s);
		if (e->dofe_pred != DOF_SECIDX_NONE) {
			bad |= check_difo(src, p, e->dofe_pred);
			ndifo++;
		}
		if (e->dofe_actions == DOF_SECIDX_NONE)
			continue;
		const dof_sec_t *as = sec(p, e->dofe_actions);
		const dof_actdesc_t *ad = secdata(p, as);
		for (size_t a = 0; a < as->dofs_size / sizeof(*ad); a++) {
			if (ad[a].dofa_difo != DOF_SECIDX_NONE) {
				bad |= check_difo(src, p, ad[a].dofa_difo);
				ndifo++;
			}
		}
	}
	if (bad) {
		fprintf(stderr, "-S listing:\n");
		dt_cprog_disassemble(p, stderr);
	}
	dt_cprog_free(p);
}

/* The corpus: one program per construct (or a few related ones). */
static const char *const corpus[] = {
	/* constants, arithmetic, folding */
	"BEGIN { trace(1); trace(-1); trace(0x7fffffffffffffff); trace(1 + 2 * 3); }",
	"BEGIN { x = 10; y = 3; trace(x + y); trace(x - y); trace(x * y); trace(x / y); trace(x % y); }",
	"BEGIN { x = 10; trace(x & 3); trace(x | 3); trace(x ^ 3); trace(x << 2); trace(x >> 1); trace(~x); }",
	"BEGIN { x = -10; trace(x >> 1); trace(-x); trace(+x); trace(!x); }",
	"BEGIN { x = 1u; y = 2ul; trace(x / 2); trace(y % 3); trace((unsigned)x >> 1); }",
	/* comparisons and logic */
	"BEGIN { x = 1; trace(x == 1); trace(x != 1); trace(x < 2); trace(x <= 2); trace(x > 0); trace(x >= 0); }",
	"BEGIN { x = 1u; trace(x < 2u); trace(x >= 2u); }",
	"BEGIN { x = 1; y = 0; trace(x && y); trace(x || y); trace(x ^^ y); trace(!(x && !y)); }",
	"BEGIN { x = 3; trace(x > 2 ? x : -x); trace(x ? \"yes\" : \"no\"); }",
	"BEGIN { x = 1; trace((x = 2, x + 1)); }",
	/* strings */
	"BEGIN { s = \"abc\"; trace(s); trace(s == \"abc\"); trace(s < \"b\"); trace(s != probename); }",
	"BEGIN { trace(strlen(\"abc\")); trace(strjoin(\"a\", \"b\")); trace(substr(\"hello\", 1, 2)); }",
	"BEGIN { trace(substr(\"hello\", 1)); trace(index(\"hello\", \"l\")); trace(rindex(\"hello\", \"l\", 4)); }",
	"BEGIN { trace(strchr(\"hello\", 'l')); trace(strrchr(\"hello\", 'l')); trace(strstr(\"hello\", \"ll\")); }",
	"BEGIN { trace(strtok(\"a,b\", \",\")); trace(strtok(NULL, \",\")); }",
	"BEGIN { trace(basename(\"/a/b\")); trace(dirname(\"/a/b\")); trace(cleanpath(\"/a/../b\")); }",
	"BEGIN { trace(lltostr(42)); trace(lltostr(42, 16)); trace(strtoll(\"42\")); trace(strtoll(\"2a\", 16)); }",
	"BEGIN { trace(toupper(\"abc\")); trace(tolower(\"ABC\")); trace(json(\"{\\\"a\\\":1}\", \"a\")); }",
	"BEGIN { trace(htons(1)); trace(htonl(1)); trace(htonll(1)); trace(ntohs(1)); trace(ntohl(1)); trace(ntohll(1)); }",
	"BEGIN { this->a = (uint32_t *)alloca(4); *this->a = 0x0100007f; trace(inet_ntoa(this->a)); trace(inet_ntop(AF_INET, this->a)); trace(inet_ntoa6((in6_addr_t *)this->a)); }",
	"BEGIN { trace(rand()); trace(progenyof(1)); }",
	"BEGIN { s = strjoin(execname, \"-\"); t = strjoin(s, probefunc); trace(t); }",
	/* built-in variables */
	"BEGIN { trace(timestamp); trace(vtimestamp); trace(walltimestamp); trace(epid); trace(id); }",
	"BEGIN { trace(pid); trace(tid); trace(ppid); trace(uid); trace(gid); trace(errno); trace(cpu); }",
	"BEGIN { trace(execname); trace(probeprov); trace(probemod); trace(probefunc); trace(probename); }",
	"BEGIN { trace(arg0); trace(arg1); trace(arg9); trace(curthread); trace(ipl); }",
	"BEGIN { trace(stackdepth); trace(ustackdepth); trace(caller); trace(ucaller); }",
	"BEGIN { trace(uregs[0]); }",
	"syscall::read:return { trace(args[0]); trace(args[1]); }",
	"struct buf { size_t b_bcount; }; typedef struct bufinfo { size_t b_bcount; } bufinfo_t;"
	"translator bufinfo_t < struct buf *B > { b_bcount = B->b_bcount; };"
	"io:::start { trace(args[0]->b_bcount); }",
	"syscall::read:entry { trace(args[0]); trace(args[2] + 1); trace(stringof(args[1])); }",
	"syscall::read:entry { trace(copyinstr(arg1)); trace(copyinstr(arg1, 10)); }",
	"syscall::read:entry { p = (int *)copyin(arg1, 8); trace(*p); }",
	/* globals, scalars of every size */
	"BEGIN { a = 1; b = (char)2; c = (short)3; d = (long)4; e = (uint8_t)5; trace(a + b + c + d + e); }",
	"BEGIN { s = \"x\"; s = \"y\"; trace(s); }",
	"int n; string str; BEGIN { n = 5; str = \"q\"; trace(n); trace(str); }",
	/* associative arrays */
	"BEGIN { a[1] = 2; trace(a[1]); a[1] = 0; }",
	"BEGIN { a[\"x\", 1] = 2; trace(a[\"x\", 1]); }",
	"BEGIN { m[execname] = timestamp; trace(m[execname]); }",
	"BEGIN { n[1, 2, 3] = \"three\"; trace(n[1, 2, 3]); }",
	/* thread-locals */
	"syscall::read:entry { self->ts = timestamp; } syscall::read:return /self->ts/ { trace(timestamp - self->ts); self->ts = 0; }",
	"BEGIN { self->s = \"str\"; trace(self->s); }",
	"BEGIN { self->a[1] = 5; trace(self->a[1]); self->a[1] = 0; }",
	"BEGIN { self->n++; self->n += 2; trace(self->n); }",
	/* clause-locals */
	"BEGIN { this->x = 3; trace(this->x * 2); }",
	"BEGIN { this->s = \"loc\"; trace(this->s); }",
	"BEGIN { this->a = 1; } BEGIN { this->a = 2; trace(this->a); }",
	/* increments, compound assignment */
	"BEGIN { x = 1; x++; ++x; x--; --x; trace(x++); trace(++x); }",
	"BEGIN { x = 8; x += 1; x -= 1; x *= 2; x /= 2; x %= 5; x &= 7; x |= 8; x ^= 1; x <<= 1; x >>= 1; trace(x); }",
	"BEGIN { a[1]++; a[1] += 3; trace(a[1]); }",
	/* casts */
	"BEGIN { x = 0x1234; trace((char)x); trace((uint8_t)x); trace((short)x); trace((int)x); trace((uint64_t)x); }",
	"BEGIN { x = -1; trace((unsigned int)x); trace((long)(int)x); }",
	"BEGIN { p = (char *)0; trace((uintptr_t)p); trace((string)\"s\"); }",
	/* pointers, structs, unions, bit-fields, arrays */
	"struct s { int a; char b[4]; int c:3; int d:5; long e; }; "
	"BEGIN { this->p = (struct s *)alloca(sizeof(struct s)); this->p->a = 1; this->p->e = 2; "
	"trace(this->p->a); trace(this->p->c); trace(this->p->d); trace(this->p->e); trace(this->p->b[1]); }",
	"struct bf { unsigned int a:3; int b:5; unsigned int c:12; long d:40; unsigned short w:16; }; "
	"this struct bf s; self struct bf t; struct bf g; "
	"BEGIN { this->p = (struct bf *)alloca(sizeof(struct bf)); this->p->c = 5; this->p->b += 2; this->p->d--; "
	"this->p->w = 1; this->s.b = -1; self->t.c++; g.d = 3; trace(this->p->a); trace(this->s.b); "
	"trace(self->t.c); trace(g.d); trace((int)this->p->b); }",
	"union u { int i; char c; }; BEGIN { p = (union u *)alloca(sizeof(union u)); p->i = 0x41; trace(p->c); }",
	"BEGIN { p = (int *)alloca(16); p[0] = 1; p[1] = 2; trace(p[0] + p[1]); trace(*(p + 1)); trace(&p[1] - p); }",
	"BEGIN { p = (char *)alloca(8); *p = 'a'; p++; *p = 0; trace(stringof((char *)alloca(1))); }",
	"struct pt { int x; int y; }; BEGIN { p = (struct pt *)alloca(sizeof(struct pt)); p->x = 1; trace((*p).x); trace(&p->y); }",
	"BEGIN { trace(sizeof(int)); trace(sizeof(long)); trace(sizeof(string)); x = 1; trace(sizeof(x)); }",
	"struct s { int a; char b; }; BEGIN { trace(offsetof(struct s, b)); }",
	"BEGIN { d = (char *)alloca(4); bcopy(\"abc\", d, 4); trace(stringof(d)); }",
	"BEGIN { trace(memref((void *)alloca(4), 4)); }",
	/* types: typedef, enum, inline */
	"typedef unsigned int u; inline int K = 7; BEGIN { x = (u)K; trace(x); }",
	"enum e { A, B = 5, C }; BEGIN { x = C; trace(x); trace(x == C); trace(B); }",
	"inline string greet = \"hi\"; BEGIN { trace(greet); }",
	"inline int sq = 3 * 3; BEGIN { trace(sq + 1); }",
	/* predicates */
	"BEGIN /1/ { trace(1); }",
	"syscall::read:entry /pid == 100 && execname == \"x\"/ { trace(arg0); }",
	"syscall::read:entry /execname != \"x\"/ { trace(arg0); }",
	"BEGIN { x = 1; } BEGIN /x/ { trace(1); }",
	/* aggregations */
	"BEGIN { @a = count(); @b = sum(1); @c = avg(2); @d = min(3); @e = max(4); @f = stddev(5); }",
	"BEGIN { @q = quantize(10); @l = lquantize(5, 0, 100, 10); @ll = llquantize(50, 10, 0, 6, 20); }",
	"BEGIN { @q[execname] = quantize(10, 3); @l[1, 2] = lquantize(5, 0, 10, 1, 4); }",
	"BEGIN { @[probefunc, pid] = count(); @s[\"k\"] = sum(arg0); }",
	"BEGIN { @[stack()] = count(); @[ustack()] = count(); @[ustack(5)] = count(); }",
	"BEGIN { @k[sym(arg0)] = count(); @k[mod(arg0)] = count(); @u[usym(arg0)] = count(); @u[umod(arg0)] = count(); @u[uaddr(arg0)] = count(); }",
	"BEGIN { @a = count(); printa(@a); printa(\"%@d\\n\", @a); clear(@a); trunc(@a); trunc(@a, 5); normalize(@a, 2); denormalize(@a); }",
	"BEGIN { @a[1] = sum(1); @b[1] = max(2); printa(\"%d %@d %@d\\n\", @a, @b); }",
	/* actions */
	"BEGIN { printf(\"hello\\n\"); printf(\"%d %s %x\\n\", 1, \"s\", 3); printf(\"%*d\\n\", 5, 1); }",
	"BEGIN { trace(1); stack(); stack(5); ustack(); ustack(5, 100); jstack(); }",
	"BEGIN { sym(arg0); func(arg0); mod(arg0); usym(arg0); ufunc(arg0); umod(arg0); uaddr(arg0); }",
	"BEGIN { tracemem(curthread, 16); tracemem(curthread, 16, 8); }",
	"BEGIN { exit(0); } END { trace(1); }",
	"BEGIN { system(\"echo %d\", 1); freopen(\"/tmp/x\"); freopen(\"\"); ftruncate(); setopt(\"quiet\"); setopt(\"bufsize\", \"1m\"); }",
	"BEGIN { stop(); raise(9); chill(1); breakpoint(); panic(); }",
	"BEGIN { copyout(\"ab\", arg0, 2); copyoutstr(\"ab\", arg0, 3); }",
	/* print(): trace() with the record's type */
	"struct s { int a; char b[4]; }; BEGIN { this->p = (struct s *)alloca(sizeof(struct s)); print(*this->p); print(this->p->a); print(\"x\"); }",
	/* translators: members, whole structs (alloca, copys, bcopy, bit-fields) */
	"struct in_s { int a; char *n; }; struct h { int v; }; struct out_s { int x; string s; struct h h; int hv; int b:3; };"
	"translator struct h < int i > { v = i; };"
	"translator struct out_s < struct in_s *p > { x = p->a; s = stringof(p->n); hv = xlate<struct h>(p->a).v; b = p->a; };"
	"BEGIN { this->p = (struct in_s *)alloca(16); trace(xlate<struct out_s *>(this->p)->x); "
	"print(*xlate<struct out_s *>(this->p)); y = xlate<struct out_s>(this->p); trace(xlate<struct out_s>(this->p).hv); }",
	/* speculations */
	("BEGIN { self->spec = speculation(); } BEGIN /self->spec/ { speculate(self->spec); trace(1); } "
	 "END /self->spec/ { commit(self->spec); } ERROR { discard(1); }"),
	/* expression statements and an empty clause */
	"BEGIN { x = 1; x; 1 + 2; }",
	"BEGIN { }",
	"BEGIN, END, syscall::read:* { trace(probename); }",
	/* if/else: sub-clauses with condition variables */
	"BEGIN { x = 1; if (x > 0) { trace(1); } else { trace(2); } trace(3); }",
	"BEGIN /pid != 0/ { if (pid > 1) trace(pid); }",
	"BEGIN, syscall::read:entry { if (arg0) { if (arg1) { @a = count(); } else { @b = sum(1); } } else printf(\"no\\n\"); }",
	"BEGIN { if (execname == \"x\") { this->s = \"a\"; } else if (execname == \"y\") { this->s = \"b\"; } else {} }",
	"BEGIN { if (1) {} } BEGIN { if (0) ; else trace(1); }",
	/* clauses typed per probe description */
	"syscall::read:entry, syscall::read:return { trace(args[0]); }",
	/* macro arguments and pragmas */
	"#pragma D option quiet\n#pragma D option bufsize=4m\nBEGIN { trace($pid); trace($$ppid); }",
};

int
main(void)
{
	for (size_t i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++)
		validate(corpus[i], 0);
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
