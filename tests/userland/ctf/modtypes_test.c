/*
 * modtypes_test.c OBJECT: the D compiler's module types, read back from one
 * shared object built from types.c (CTF, DWARF 5 or DWARF 4; or with no
 * type information, where only the refusal of its globals is checked).
 *
 * The object is dlopen()ed so that it is one of this process's modules, as
 * a library of the dtrace command would be.  Part one asks the type system
 * directly (dt_type_tag/dt_type_lookup in a compilation of our own) and
 * compares every size, offset, bit-field position and member type with
 * what this C compiler says about types.h.  Part two compiles D programs
 * that use the types and the object's globals and checks the DIF and the
 * errors.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_modtypes.h"
#include "dt_parse.h"
#include "types.h"
#include "../ct_check.h"

static char mod[256]; /* the object's module name: its file's base name */
static bool ctf;      /* the object's types are CTF (else DWARF) */
static void *lib;

/* "mod`name" */
static const char *
scoped(const char *name)
{
	static char buf[8][512];
	static int i;
	char *b = buf[i++ % 8];
	snprintf(b, sizeof(buf[0]), "%s`%s", mod, name);
	return b;
}

/* ---- part one: the type system ---------------------------------------- */

static dt_pcb_t *
pcb_new(void)
{
	dt_pcb_t *pcb = calloc(1, sizeof(*pcb));
	if (pcb == NULL)
		abort();
	pcb->strsize = 256;
	if (setjmp(pcb->jmp) != 0) {
		fprintf(stderr, "FAIL: compilation error while importing types\n");
		exit(1);
	}
	dt_types_init(pcb);
	return pcb;
}

/* dt_parse.c's arenas are a chain through their first member (dt_arena_free is private). */
static void
pcb_free(dt_pcb_t *pcb)
{
	void *a = pcb->arena;
	while (a != NULL) {
		void *next = *(void **)a;
		free(a);
		a = next;
	}
	free(pcb);
}

static dt_member_t *
member(dt_type_t *sou, const char *name)
{
	dt_type_t *r = dt_type_resolve(sou);
	for (dt_member_t *m = r != NULL ? r->members : NULL; m != NULL; m = m->next)
		if ((m->name == NULL && name == NULL) || (m->name != NULL && name != NULL && strcmp(m->name, name) == 0))
			return m;
	return NULL;
}

static const char *
tname(dt_type_t *t)
{
	static char buf[4][512];
	static int i;
	return dt_type_name(t, buf[i++ % 4], sizeof(buf[0]));
}

/* Type names equal but for blanks (dt_type_name's spacing of declarators is its own). */
static bool
same(const char *a, const char *b)
{
	for (;; a++, b++) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return false;
		if (*a == '\0')
			return true;
	}
}

static void
check_type(dt_type_t *t, const char *want, const char *what)
{
	if (want != NULL)
		CHECK(same(tname(t), want), "%s: type '%s', expected '%s'", what, tname(t), want);
}

#define CHECK_MEMBER(sou, ctype, mname, tstr)                                                          \
	do {                                                                                           \
		dt_member_t *m_ = member(sou, #mname);                                                 \
		CHECK(m_ != NULL, "member " #mname " of " #ctype);                                      \
		if (m_ != NULL) {                                                                      \
			CHECK(m_->off == offsetof(ctype, mname), #ctype "." #mname " at %llu, expected %zu", \
			      (unsigned long long)m_->off, offsetof(ctype, mname));                    \
			CHECK(dt_type_resolve(m_->type)->size == sizeof(((ctype *)0)->mname),         \
			      #ctype "." #mname " size %llu, expected %zu",                            \
			      (unsigned long long)dt_type_resolve(m_->type)->size,                    \
			      sizeof(((ctype *)0)->mname));                                            \
			check_type(m_->type, tstr, #ctype "." #mname);                                 \
		}                                                                                      \
	} while (0)

/*
 * Where a bit-field lies: set it to all ones in a zeroed struct and find
 * the first and last bit set (the host is little-endian, as the bit-field
 * loads of dt_cg.c assume).
 */
static void
bits_of(const unsigned char *p, size_t n, int *start, int *width)
{
	int first = -1, last = -1;
	for (size_t i = 0; i < n * 8; i++) {
		if (p[i / 8] & (1u << (i % 8))) {
			if (first < 0)
				first = (int)i;
			last = (int)i;
		}
	}
	*start = first;
	*width = last - first + 1;
}

#define CHECK_BITFIELD(sou, mname)                                                                 \
	do {                                                                                       \
		struct ct_bits b_;                                                                 \
		int start_, width_;                                                                \
		memset(&b_, 0, sizeof(b_));                                                        \
		b_.mname = -1;                                                                     \
		bits_of((const unsigned char *)&b_, sizeof(b_), &start_, &width_);                 \
		dt_member_t *m_ = member(sou, #mname);                                             \
		CHECK(m_ != NULL && m_->bits == width_, "bit-field " #mname ": %d bits, expected %d", \
		      m_ ? m_->bits : -1, width_);                                                 \
		CHECK(m_ != NULL && (int)(m_->off * 8) + m_->bitoff == start_,                     \
		      "bit-field " #mname ": bit %d, expected %d", m_ ? (int)(m_->off * 8) + m_->bitoff : -1, \
		      start_);                                                                     \
		CHECK(m_ != NULL && m_->off % dt_type_resolve(m_->type)->size == 0 &&              \
			      m_->bitoff + m_->bits <= (int)dt_type_resolve(m_->type)->size * 8,  \
		      "bit-field " #mname ": unit at %llu of its type's size",                     \
		      m_ ? (unsigned long long)m_->off : 0ull);                                    \
		CHECK(m_ != NULL && dt_type_resolve(m_->type)->issigned == ((b_.mname = -1) < 0), \
		      "bit-field " #mname ": signedness");                                         \
	} while (0)

static void
test_types_in(dt_pcb_t *pcb)
{
	dt_type_t *t, *node, *point;
	dt_member_t *m;

	/* struct, scoped and unscoped (the same imported type) */
	point = dt_type_tag(pcb, DT_TK_STRUCT, scoped("ct_point"));
	CHECK(point != NULL && point->kind == DT_TK_STRUCT && point->size == sizeof(struct ct_point),
	      "struct %s: size %llu", scoped("ct_point"), point ? (unsigned long long)point->size : 0ull);
	if (point == NULL)
		return;
	CHECK(point->isuser, "module types are marked isuser");
	CHECK_MEMBER(point, struct ct_point, x, "int");
	CHECK_MEMBER(point, struct ct_point, y, "int");
	CHECK(dt_type_tag(pcb, DT_TK_STRUCT, "ct_point") != NULL, "unscoped struct ct_point");
	CHECK(dt_type_tag(pcb, DT_TK_UNION, scoped("ct_point")) == NULL, "ct_point is no union");

	/* typedef */
	t = dt_type_lookup(pcb, scoped("ct_point_t"));
	CHECK(t != NULL && t->kind == DT_TK_TYPEDEF && dt_type_resolve(t) == point,
	      "typedef ct_point_t names the imported struct ct_point");
	CHECK(dt_type_lookup(pcb, scoped("ct_handler_t")) != NULL, "typedef ct_handler_t");

	/* enum */
	t = dt_type_tag(pcb, DT_TK_ENUM, scoped("ct_color"));
	CHECK(t != NULL && t->kind == DT_TK_ENUM && t->size == sizeof(enum ct_color), "enum ct_color");
	if (t != NULL) {
		static const struct { const char *n; int64_t v; } want[] = {
			{"CT_RED", CT_RED}, {"CT_GREEN", CT_GREEN}, {"CT_BLUE", CT_BLUE}, {"CT_NEG", CT_NEG}};
		for (size_t i = 0; i < 4; i++) {
			m = member(t, want[i].n);
			CHECK(m != NULL && m->value == want[i].v, "enumerator %s = %lld, expected %lld", want[i].n,
			      m ? (long long)m->value : 0ll, (long long)want[i].v);
		}
	}

	/* union */
	t = dt_type_tag(pcb, DT_TK_UNION, scoped("ct_num"));
	CHECK(t != NULL && t->kind == DT_TK_UNION && t->size == sizeof(union ct_num), "union ct_num");
	if (t != NULL) {
		CHECK_MEMBER(t, union ct_num, i, "int32_t");
		CHECK_MEMBER(t, union ct_num, bytes, "uint8_t[8]");
		CHECK_MEMBER(t, union ct_num, d, "double");
		CHECK(t->align == _Alignof(union ct_num), "union alignment %u", t->align);
	}

	/* bit-fields */
	t = dt_type_tag(pcb, DT_TK_STRUCT, scoped("ct_bits"));
	CHECK(t != NULL && t->size == sizeof(struct ct_bits), "struct ct_bits: size %llu, expected %zu",
	      t ? (unsigned long long)t->size : 0ull, sizeof(struct ct_bits));
	if (t != NULL) {
		CHECK_BITFIELD(t, a);
		CHECK_BITFIELD(t, b);
		CHECK_BITFIELD(t, c);
		CHECK_BITFIELD(t, d);
		CHECK_BITFIELD(t, e);
		CHECK_BITFIELD(t, f);
		CHECK_MEMBER(t, struct ct_bits, tail, "long");
		CHECK(member(t, "tail")->bits == 0, "tail is no bit-field");
	}

	/* everything else, through one struct */
	node = dt_type_tag(pcb, DT_TK_STRUCT, scoped("ct_node"));
	CHECK(node != NULL && node->size == sizeof(struct ct_node), "struct ct_node: size %llu, expected %zu",
	      node ? (unsigned long long)node->size : 0ull, sizeof(struct ct_node));
	if (node == NULL)
		return;
	CHECK(node->align == _Alignof(struct ct_node), "struct ct_node alignment %u", node->align);
	CHECK_MEMBER(node, struct ct_node, next, "struct ct_node *");
	CHECK(dt_type_resolve(member(node, "next")->type)->ref == node, "next points back at ct_node");
	CHECK_MEMBER(node, struct ct_node, pos, "ct_point_t");
	CHECK_MEMBER(node, struct ct_node, ppos, "struct ct_point *");
	CHECK(dt_type_resolve(member(node, "ppos")->type)->ref == point, "one struct ct_point per module");
	CHECK_MEMBER(node, struct ct_node, arr, "int[4]");
	CHECK_MEMBER(node, struct ct_node, name, "char[16]");
	/*
	 * gcc 12's CTF lists a multi-dimensional array's dimensions innermost
	 * first (short[3][2] for short[2][3]); the importer takes CTF as it
	 * is, so for CTF only the shape and the size are checked.
	 */
	CHECK_MEMBER(node, struct ct_node, grid, ctf ? NULL : "short[2][3]");
	t = dt_type_resolve(member(node, "grid")->type);
	CHECK(t->kind == DT_TK_ARRAY && t->ref->kind == DT_TK_ARRAY && t->nelems * t->ref->nelems == 6 &&
	      (ctf || (t->nelems == 2 && t->ref->nelems == 3)) && t->ref->ref->size == 2, "grid is short[2][3]");
	CHECK_MEMBER(node, struct ct_node, handler, "ct_handler_t");
	t = dt_type_resolve(member(node, "handler")->type);
	CHECK(t->kind == DT_TK_PTR && t->ref->kind == DT_TK_FUNC && t->ref->nargs == 2 && !t->ref->varargs,
	      "handler: pointer to a function of two arguments");
	check_type(t->ref->ref, "int", "handler's return type");
	check_type(t->ref->args[0], "int", "handler's first argument");
	check_type(t->ref->args[1], "char *", "handler's second argument (qualifiers dropped)");
	CHECK_MEMBER(node, struct ct_node, vfn, NULL);
	t = dt_type_resolve(member(node, "vfn")->type);
	CHECK(t->kind == DT_TK_PTR && t->ref->kind == DT_TK_FUNC && t->ref->nargs == 1 && t->ref->varargs,
	      "vfn: pointer to a function of one argument and more");
	check_type(t->ref->ref, "long", "vfn's return type");
	CHECK_MEMBER(node, struct ct_node, color, "enum ct_color");
	CHECK_MEMBER(node, struct ct_node, num, "union ct_num");
	CHECK_MEMBER(node, struct ct_node, bits, "struct ct_bits");
	CHECK_MEMBER(node, struct ct_node, opaque, "struct ct_opaque *");
	t = dt_type_resolve(member(node, "opaque")->type);
	CHECK(t->ref->kind == DT_TK_FWD, "struct ct_opaque stays a forward declaration");
	CHECK_MEMBER(node, struct ct_node, label, "char *");
	CHECK_MEMBER(node, struct ct_node, big, "uint64_t");
	CHECK_MEMBER(node, struct ct_node, uc, "unsigned char");
	CHECK(dt_type_resolve(member(node, "uc")->type)->ischar, "unsigned char is a char type");
	m = member(node, "flex");
	CHECK(m != NULL && m->off == offsetof(struct ct_node, flex) && same(tname(m->type), "char[0]"),
	      "flexible array member flex: char[0] at %zu", offsetof(struct ct_node, flex));
	m = member(node, NULL);
	CHECK(m != NULL && m->off == offsetof(struct ct_node, u64) && dt_type_resolve(m->type)->kind == DT_TK_UNION,
	      "anonymous union member at %zu", offsetof(struct ct_node, u64));
	CHECK(dt_type_member(node, "u64") != NULL && dt_type_member(node, "c") != NULL,
	      "members of the anonymous union are members of ct_node");

	/* D's names come first; scoping still reaches the module */
	dt_type_define(pcb, "ct_point_t", pcb->t_int);
	CHECK(dt_type_resolve(dt_type_lookup(pcb, "ct_point_t")) == pcb->t_int, "D's typedef shadows the module's");
	CHECK(dt_type_resolve(dt_type_lookup(pcb, scoped("ct_point_t"))) == point, "scoped lookup reaches the module");

	/* misses */
	CHECK(dt_type_lookup(pcb, "ct_no_such_type") == NULL, "unknown typedef");
	CHECK(dt_type_lookup(pcb, "ct_no_such_type") == NULL, "unknown typedef (cached)");
	CHECK(dt_type_tag(pcb, DT_TK_STRUCT, "no_such_module.so`ct_point") == NULL, "unknown module");
	CHECK(dt_type_tag(pcb, DT_TK_STRUCT, scoped("ct_opaque")) == NULL, "no definition of ct_opaque");
}

static void
test_type_system(void)
{
	dt_pcb_t *pcb = pcb_new();
	test_types_in(pcb);
	pcb_free(pcb);
}

/* ---- part two: D programs --------------------------------------------- */

static dt_cprog_t *
compile(const char *fmt, ...)
{
	char src[4096];
	va_list ap;
	dt_copts_t o;

	va_start(ap, fmt);
	vsnprintf(src, sizeof(src), fmt, ap);
	va_end(ap);
	memset(&o, 0, sizeof(o));
	o.flags = DT_C_DIFV;
	return dt_compile_string(src, &o);
}

static char *
disassemble(dt_cprog_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	dt_cprog_disassemble(p, f);
	fclose(f);
	return buf;
}

/* Compile a program; every `want' string must be in its disassembly. */
static void
expect_dif(const char *what, const char *src, const char *const *want)
{
	dt_cprog_t *p = compile("%s", src);
	CHECK(p != NULL && !p->err.failed, "%s: <%s>: %s", what, src, p ? p->err.text : "NULL");
	if (p == NULL || p->err.failed) {
		dt_cprog_free(p);
		return;
	}
	char *dis = disassemble(p);
	for (; *want != NULL; want++)
		CHECK(strstr(dis, *want) != NULL, "%s: '%s' not in the DIF of <%s>:\n%s", what, *want, src, dis);
	free(dis);
	dt_cprog_free(p);
}

static void
expect_err(const char *src, const char *tag, const char *text)
{
	dt_cprog_t *p = compile("%s", src);
	CHECK(p != NULL && p->err.failed, "expected failure for <%s>", src);
	if (p != NULL && p->err.failed) {
		CHECK(strcmp(dt_errtag_name(p->err.tag), tag) == 0, "<%s>: tag %s, expected %s", src,
		      dt_errtag_name(p->err.tag), tag);
		CHECK(strcmp(p->err.msg, text) == 0, "<%s>:\n  got      '%s'\n  expected '%s'", src, p->err.msg,
		      text);
	}
	dt_cprog_free(p);
}

static const char *
hex(uint64_t v)
{
	static char buf[8][64];
	static int i;
	char *b = buf[i++ % 8];
	snprintf(b, sizeof(buf[0]), "! 0x%llx", (unsigned long long)v);
	return b;
}

static void
test_d_programs(void)
{
	char src[2048];

	snprintf(src, sizeof(src), "BEGIN { trace(sizeof(struct %s)); }", scoped("ct_node"));
	expect_dif("sizeof", src, (const char *[]){hex(sizeof(struct ct_node)), NULL});
	snprintf(src, sizeof(src), "BEGIN { trace(sizeof(%s)); }", scoped("ct_point_t"));
	expect_dif("sizeof typedef", src, (const char *[]){hex(sizeof(ct_point_t)), NULL});
	snprintf(src, sizeof(src), "BEGIN { trace(offsetof(struct %s, color)); }", scoped("ct_node"));
	expect_dif("offsetof", src, (const char *[]){hex(offsetof(struct ct_node, color)), NULL});
	expect_dif("unscoped sizeof", "BEGIN { trace(sizeof(union ct_num)); }",
		   (const char *[]){hex(sizeof(union ct_num)), NULL});

	/* -> and . through a cast: the member offsets, then a signed word load */
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->pos.y); }", scoped("ct_node"));
	expect_dif("-> and .", src,
		   (const char *[]){hex(offsetof(struct ct_node, pos)), hex(offsetof(struct ct_point, y)), "ldsw", NULL});
	/* a 2-byte element of a two-dimensional array member */
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->grid[1][2]); }", scoped("ct_node"));
	expect_dif("array member", src, (const char *[]){hex(offsetof(struct ct_node, grid)), "ldsh", NULL});
	/* pointer arithmetic scales by the struct's size */
	snprintf(src, sizeof(src), "BEGIN { trace((uintptr_t)((struct %s *)arg0 + 3)); }", scoped("ct_node"));
	expect_dif("pointer arithmetic", src, (const char *[]){hex(sizeof(struct ct_node)), "mul", NULL});
	/* bit-fields as DTrace reads them: the field's bytes only (20 bits: a
	   word at byte 4; 7 bits: the byte at bit 8), unsigned shifted down and
	   masked, signed shifted up and arithmetically down */
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->d); }", scoped("ct_bits"));
	expect_dif("unsigned bit-field", src,
		   (const char *[]){"! 0x4\n", "lduw", "srl", "! 0xfffff\n", "and", NULL});
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->c); }", scoped("ct_bits"));
	expect_dif("signed bit-field", src, (const char *[]){"! 0x1\n", "ldsb", "sll", "! 0x39\n", "sra", NULL});
	/* a function pointer member is a scalar; an enum member an integer */
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->handler); trace(((struct %s *)arg0)->color == 6); }",
		 scoped("ct_node"), scoped("ct_node"));
	expect_dif("function pointer", src, (const char *[]){"ldx", NULL});
	/* a union member, through the unscoped typedef of a D declaration */
	snprintf(src, sizeof(src), "%s *p; BEGIN { p = (%s *)arg0; trace(p->y); }", scoped("ct_point_t"),
		 scoped("ct_point_t"));
	expect_dif("D variable of a module type", src, (const char *[]){"ldsw", NULL});

	/* module globals: their address in this process, their type from the object */
	void *gi = dlsym(lib, "ct_global_int"), *gn = dlsym(lib, "ct_global_node"), *gp = dlsym(lib, "ct_points");
	CHECK(gi != NULL && gn != NULL && gp != NULL, "dlsym of the object's globals");
	snprintf(src, sizeof(src), "BEGIN { trace(%s); }", scoped("ct_global_int"));
	expect_dif("global int", src, (const char *[]){hex((uintptr_t)gi), "ldsw", NULL});
	snprintf(src, sizeof(src), "BEGIN { trace(%s.pos.y); trace(%s.big); }", scoped("ct_global_node"),
		 scoped("ct_global_node"));
	expect_dif("global struct", src, (const char *[]){hex((uintptr_t)gn), "ldx", NULL});
	snprintf(src, sizeof(src), "BEGIN { trace(%s[2].x); }", scoped("ct_points"));
	expect_dif("global array", src, (const char *[]){hex((uintptr_t)gp), hex(sizeof(ct_point_t)), NULL});
	snprintf(src, sizeof(src), "BEGIN { trace((uintptr_t)&%s); }", scoped("ct_global_int"));
	expect_dif("address of a global", src, (const char *[]){hex((uintptr_t)gi), NULL});
	/* a function is its address, typed by its prototype */
	void *fn = dlsym(lib, "ct_use");
	snprintf(src, sizeof(src), "BEGIN { trace((uintptr_t)%s); }", scoped("ct_use"));
	expect_dif("function address", src, (const char *[]){hex((uintptr_t)fn), NULL});

	/* D's own definitions may reuse a module's names */
	expect_dif("D struct shadows", "struct ct_point { char c; }; BEGIN { trace(sizeof(struct ct_point)); }",
		   (const char *[]){hex(1), NULL});

	/* errors */
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->nosuch); }", scoped("ct_node"));
	expect_err(src, "D_TYPE_MEMBER", "nosuch is not a member of struct ct_node");
	snprintf(src, sizeof(src), "BEGIN { trace(((struct %s *)arg0)->opaque->x); }", scoped("ct_node"));
	expect_err(src, "D_OP_INCOMPLETE",
		   "operator -> cannot be applied to a forward declaration: no struct ct_opaque definition is available");
	char want[512];
	snprintf(src, sizeof(src), "BEGIN { trace(%s); }", scoped("ct_no_such_symbol"));
	snprintf(want, sizeof(want), "failed to resolve %s: Unknown symbol name", scoped("ct_no_such_symbol"));
	expect_err(src, "D_IDENT_UNDEF", want);
	snprintf(src, sizeof(src), "BEGIN { %s[1] = 2; }", scoped("ct_no_such_symbol"));
	expect_err(src, "D_IDENT_UNDEF", want);
	expect_err("BEGIN { trace(no_such_module.so`ct_global_int); }", "D_IDENT_UNDEF",
		   "failed to resolve no_such_module.so`ct_global_int: Unknown module name");
	/* mod``sym, DTrace's user-symbol mark, names the same global */
	snprintf(src, sizeof(src), "BEGIN { trace(%s`ct_global_int); }", scoped(""));
	expect_dif("mod``sym", src, (const char *[]){hex((uintptr_t)gi), NULL});
}

/* An object without CTF or DWARF: its symbols resolve, but have no type. */
static void
test_no_types(void)
{
	char src[512], want[512];

	snprintf(src, sizeof(src), "BEGIN { trace(%s); }", scoped("ct_global_int"));
	snprintf(want, sizeof(want),
		 "no symbolic type information is available for %s: Module does not contain any CTF or DWARF data",
		 scoped("ct_global_int"));
	expect_err(src, "D_SYM_NOTYPES", want);
	snprintf(src, sizeof(src), "BEGIN { trace(sizeof(struct %s)); }", scoped("ct_node"));
	dt_cprog_t *p = compile("%s", src);
	CHECK(p != NULL && p->err.failed, "no struct ct_node without type information");
	dt_cprog_free(p);
}

/*
 * -p: the types and globals of another process's program.  PROGRAM (target.c
 * with types.c, CTF) runs as a child and says where its ct_global_int is;
 * this process never loads it, so only $target's modules can answer.
 */
static int
test_target(const char *prog)
{
	int fds[2];
	pid_t pid;
	char line[64] = "";
	FILE *f;

	if (pipe(fds) != 0 || (pid = fork()) < 0)
		return 2;
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
		fprintf(stderr, "FAIL: %s said nothing\n", prog);
		kill(pid, SIGKILL);
		return 1;
	}
	uint64_t addr = strtoull(line, NULL, 16);
	const char *slash = strrchr(prog, '/');
	snprintf(mod, sizeof(mod), "%s", slash != NULL ? slash + 1 : prog);

	char src[1024], want[4][64];
	dt_copts_t o;
	memset(&o, 0, sizeof(o));
	o.flags = DT_C_DIFV;
	o.macros.set = 1;
	o.macros.target = pid;
	snprintf(src, sizeof(src),
		 "BEGIN { trace(sizeof(struct %s)); trace(%s); trace(a.out`ct_global_int); "
		 "trace(offsetof(struct ct_node, big)); }",
		 scoped("ct_node"), scoped("ct_global_int"));
	snprintf(want[0], sizeof(want[0]), "! 0x%zx", sizeof(struct ct_node));
	snprintf(want[1], sizeof(want[1]), "! 0x%llx", (unsigned long long)addr);
	snprintf(want[2], sizeof(want[2]), "! 0x%zx", offsetof(struct ct_node, big));
	dt_cprog_t *p = dt_compile_string(src, &o);
	CHECK(p != NULL && !p->err.failed, "<%s> with $target %d: %s", src, (int)pid, p ? p->err.text : "NULL");
	if (p != NULL && !p->err.failed) {
		char *dis = disassemble(p);
		for (int i = 0; i < 3; i++)
			CHECK(strstr(dis, want[i]) != NULL, "'%s' not in:\n%s", want[i], dis);
		free(dis);
	}
	dt_cprog_free(p);

	/* without the target the program's types are not ours */
	o.macros.set = 0;
	p = dt_compile_string(src, &o);
	CHECK(p != NULL && p->err.failed, "<%s> without $target compiled", src);
	dt_cprog_free(p);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fclose(f);
	printf("%s: %d passed, %d failed\n", mod, passes, failures);
	return failures != 0;
}

int
main(int argc, char **argv)
{
	const char *slash;

	if (argc == 3 && strcmp(argv[1], "--target") == 0)
		return test_target(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJECT.so | --target PROGRAM\n", argv[0]);
		return 2;
	}
	if ((lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) == NULL) {
		fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[1], dlerror());
		return 1;
	}
	slash = strrchr(argv[1], '/');
	snprintf(mod, sizeof(mod), "%s", slash != NULL ? slash + 1 : argv[1]);
	ctf = strstr(mod, "ctf") != NULL;
	if (strstr(mod, "notypes") != NULL) {
		test_no_types();
	} else {
		test_type_system();
		test_d_programs();
	}
	printf("%s: %d passed, %d failed\n", mod, passes, failures);
	return failures != 0;
}
