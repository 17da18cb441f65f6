/*
 * dt_parse.c: the compilation driver, memory, errors, parse-tree nodes,
 * probe descriptions and #pragma.
 *
 * dt_compile_string() sets up a dt_pcb_t, runs the preprocessor when asked,
 * parses, then hands the tree to the back end (dt_compile_program).  Any
 * error longjmp()s back here with the message already formatted; the arena
 * that owns every node, type and identifier is then freed in one go.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_cg.h"
#include "dt_grammar.h"
#include "dt_parse.h"
#include "dt_modtypes.h"

/* ---- arena ---------------------------------------------------------------- */

struct dt_arena {
	struct dt_arena *next;
	size_t used, size;
	max_align_t data[];
};

void *
dt_zalloc(dt_pcb_t *pcb, size_t size)
{
	struct dt_arena *a = pcb->arena;
	size = (size + 15) & ~(size_t)15;
	if (a == NULL || a->used + size > a->size) {
		size_t n = size > 65536 ? size : 65536;
		a = calloc(1, sizeof(*a) + n);
		if (a == NULL)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		a->size = n;
		a->next = pcb->arena;
		pcb->arena = a;
	}
	void *p = (char *)a->data + a->used;
	a->used += size;
	return p;
}

char *
dt_strndup(dt_pcb_t *pcb, const char *s, size_t n)
{
	char *p = dt_zalloc(pcb, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
dt_strdup(dt_pcb_t *pcb, const char *s)
{
	return dt_strndup(pcb, s, strlen(s));
}

static void
dt_arena_free(dt_pcb_t *pcb)
{
	struct dt_arena *a = pcb->arena, *n;
	for (; a != NULL; a = n) {
		n = a->next;
		free(a);
	}
	pcb->arena = NULL;
}

/* ---- errors ------------------------------------------------------------- */

int dt_lex_lineno(dt_pcb_t *pcb);

static void
dt_verror(dt_pcb_t *pcb, int line, dt_errtag_t tag, const char *fmt, va_list ap)
{
	dt_cerror_t *e = &pcb->prog->err;
	size_t n;
	char prefix[512] = "";

	e->failed = 1;
	e->tag = tag;
	e->line = line > 0 ? line : pcb->scanner != NULL ? dt_lex_lineno(pcb) : pcb->lineno;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	n = strlen(e->msg);
	while (n > 0 && e->msg[n - 1] == '\n')
		e->msg[--n] = '\0';

	/*
	 * DTrace's rule: only a program read from a file has line numbers;
	 * one compiled from a string (-n, -P, ...) names the region being
	 * checked ("in action list: ") instead, if any.
	 */
	if (!pcb->fromfile)
		e->line = 0;
	if (pcb->cflags & DT_C_ETAGS)
		snprintf(prefix, sizeof(prefix), "[%s] ", dt_errtag_name(tag));
	n = strlen(prefix);
	if (pcb->filetag != NULL)
		snprintf(prefix + n, sizeof(prefix) - n, "\"%s\", line %d: ", pcb->filetag, e->line);
	else if (e->line > 0)
		snprintf(prefix + n, sizeof(prefix) - n, "line %d: ", e->line);
	else if (pcb->region != NULL)
		snprintf(prefix + n, sizeof(prefix) - n, "in %s: ", pcb->region);
	snprintf(e->text, sizeof(e->text), "%s%s", prefix, e->msg);
}

void
dt_error(dt_pcb_t *pcb, int line, dt_errtag_t tag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	dt_verror(pcb, line, tag, fmt, ap);
	va_end(ap);
	longjmp(pcb->jmp, 1);
}

void
dnerror(dt_pcb_t *pcb, const dt_node_t *dnp, dt_errtag_t tag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	dt_verror(pcb, dnp != NULL ? dnp->line : 0, tag, fmt, ap);
	va_end(ap);
	longjmp(pcb->jmp, 1);
}

/*
 * A failure DTrace reports as an error number, not a compiler message: no
 * tag, no line (the preprocessor's, EDT_CPPERR).
 */
static _Noreturn void
dt_error_plain(dt_pcb_t *pcb, dt_errtag_t tag, const char *msg)
{
	dt_cerror_t *e = &pcb->prog->err;
	e->failed = 1;
	e->tag = tag;
	e->line = 0;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
	snprintf(e->text, sizeof(e->text), "%s", msg);
	longjmp(pcb->jmp, 1);
}

#define DT_ERRTAG_NAME(t) #t,
static const char *const dt_errtag_names[] = {DT_ERRTAG_LIST(DT_ERRTAG_NAME)};

const char *
dt_errtag_name(int tag)
{
	if (tag < 0 || tag >= D_NTAGS)
		return "D_UNKNOWN";
	return dt_errtag_names[tag];
}

/*
 * A copy of s[0..n) with unprintable and special characters as C escapes
 * ("\n", "\"", "\033"); it stops after the first NUL, which shows as "\0".
 */
char *
dt_strchr2esc(const char *s, size_t n)
{
	char *s2 = malloc(n * 4 + 1), *q = s2;
	size_t i;

	if (s2 == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		char c = s[i];

		switch (c) {
		case '\0':
			*q++ = '\\';
			*q++ = '0';
			break;
		case '\a':
			*q++ = '\\';
			*q++ = 'a';
			break;
		case '\b':
			*q++ = '\\';
			*q++ = 'b';
			break;
		case '\f':
			*q++ = '\\';
			*q++ = 'f';
			break;
		case '\n':
			*q++ = '\\';
			*q++ = 'n';
			break;
		case '\r':
			*q++ = '\\';
			*q++ = 'r';
			break;
		case '\t':
			*q++ = '\\';
			*q++ = 't';
			break;
		case '\v':
			*q++ = '\\';
			*q++ = 'v';
			break;
		case '"':
			*q++ = '\\';
			*q++ = '"';
			break;
		case '\\':
			*q++ = '\\';
			*q++ = '\\';
			break;
		default:
			if (c != ' ' && (c < '!' || c > '~')) {
				*q++ = '\\';
				*q++ = (char)(((c >> 6) & 3) + '0');
				*q++ = (char)(((c >> 3) & 7) + '0');
				*q++ = (char)((c & 7) + '0');
			} else {
				*q++ = c;
			}
		}
		if (c == '\0')
			break;
	}
	*q = '\0';
	return s2;
}

/* ---- nodes ---------------------------------------------------------------- */

dt_node_t *
dt_node_new(dt_pcb_t *pcb, dt_nkind_t kind)
{
	dt_node_t *n = dt_zalloc(pcb, sizeof(*n));
	n->kind = kind;
	n->line = pcb->scanner != NULL ? dt_lex_lineno(pcb) : pcb->lineno;
	n->attr = dt_attr_def;
	return n;
}

dt_node_t *
dt_node_int(dt_pcb_t *pcb, uint64_t v)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_INT);
	n->value = v;
	n->type = pcb->t_int;
	n->flags = DT_NF_SIGNED | DT_NF_COOKED;
	return n;
}

dt_node_t *
dt_node_str(dt_pcb_t *pcb, const char *s)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_STRING);
	n->string = s;
	n->type = pcb->t_string;
	n->flags = DT_NF_REF | DT_NF_COOKED;
	return n;
}

dt_node_t *
dt_node_ident(dt_pcb_t *pcb, const char *s)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_IDENT);
	dt_ident_t *idp;

	n->string = s;
	n->op = DT_TOK_IDENT;
	/*
	 * DTrace's parser makes a use of an inline of an integer constant that
	 * constant (dt_node_ident); this one does as it cooks the name, and
	 * -x tree prints the name as DTrace's constant until then.
	 */
	if (pcb->scanner != NULL && (idp = dt_builtin_lookup(pcb, s)) != NULL && idp->kind == DT_IDENT_INLINE &&
	    idp->inline_expr != NULL && idp->inline_expr->kind == DT_NODE_INT)
		n->inl = idp;
	return n;
}

dt_node_t *
dt_node_op1(dt_pcb_t *pcb, int op, dt_node_t *c)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_OP1);
	n->op = op;
	n->left = c;
	return n;
}

dt_node_t *
dt_node_op2(dt_pcb_t *pcb, int op, dt_node_t *l, dt_node_t *r)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_OP2);
	n->op = op;
	n->left = l;
	n->right = r;
	/* DTrace refuses a constant zero divisor as the node is built, whatever the left side is */
	if (r != NULL && r->kind == DT_NODE_INT && r->value == 0 &&
	    (op == DT_TOK_DIV || op == DT_TOK_MOD || op == DT_TOK_DIV_EQ || op == DT_TOK_MOD_EQ))
		dnerror(pcb, n, D_DIV_ZERO, "expression contains division by zero");
	return n;
}

dt_node_t *
dt_node_op3(dt_pcb_t *pcb, dt_node_t *c, dt_node_t *l, dt_node_t *r)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_OP3);
	n->op = DT_TOK_QUESTION;
	n->cond = c;
	n->left = l;
	n->right = r;
	return n;
}

/*
 * A call.  DTrace's dt_node_func() judges the name as the parser reduces the
 * call, before any clause is cooked, so these errors come ahead of the
 * semantic ones of the whole program and name the line the call ends on.
 * The identifiers known then are the builtins, the inlines and enumerators
 * declared so far and the globals declared so far; an enumerator, or an
 * inline whose value is an integer constant, has already become that
 * constant (dt_node_ident()), so it is no function designator at all.
 */
dt_node_t *
dt_node_func(dt_pcb_t *pcb, dt_node_t *f, dt_node_t *args)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_FUNC);
	dt_ident_t *idp;
	const char *mark;

	n->left = f;
	n->args = args;
	if (f->kind != DT_NODE_IDENT)
		dnerror(pcb, n, D_FUNC_IDENT, "function designator is not of function type");
	idp = dt_builtin_lookup(pcb, f->string);
	if (idp == NULL) {
		idp = dt_idtab_lookup(&pcb->globals, f->string);
		if (idp != NULL && !(idp->flags & DT_IDFLG_DECL))
			idp = NULL;
	}
	if (idp != NULL && (idp->kind == DT_IDENT_ENUM || (idp->kind == DT_IDENT_INLINE &&
	    idp->inline_expr != NULL && idp->inline_expr->kind == DT_NODE_INT)))
		dnerror(pcb, n, D_FUNC_IDENT, "function designator is not of function type");
	mark = f->op == DT_TOK_AGG ? "@" : "";
	if (idp == NULL)
		dnerror(pcb, n, D_FUNC_UNDEF, "undefined function name: %s%s", mark, f->string);
	if (idp->kind != DT_IDENT_FUNC && idp->kind != DT_IDENT_ACTFUNC && idp->kind != DT_IDENT_AGGFUNC)
		dnerror(pcb, n, D_FUNC_IDKIND, "%s '%s%s' may not be referenced as a function",
			dt_idkind_name(idp->kind == DT_IDENT_INLINE
					       ? (idp->iparams != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR)
					       : idp->kind),
			mark,
			f->string);
	n->line = f->line;
	return n;
}

dt_node_t *
dt_node_type(dt_pcb_t *pcb, dt_type_t *t)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_TYPE);
	n->type = t;
	/*
	 * DTrace's dt_node_type(): D's and C's own types are Stable, a
	 * module's (here: a process's objects', isuser) Private/Private/Unknown.
	 */
	while (t != NULL && (t->kind == DT_TK_PTR || t->kind == DT_TK_ARRAY) && !t->isuser)
		t = t->ref;
	if (t != NULL && t->isuser)
		n->attr = dt_attr_typ;
	return n;
}

dt_node_t *
dt_node_type_written(dt_pcb_t *pcb, dt_type_t *t)
{
	dt_node_t *n = dt_node_type(pcb, t);

	dt_node_attr_assign(pcb, n, n->attr);
	return n;
}

dt_node_t *
dt_node_type_checked(dt_pcb_t *pcb, dt_node_t *n)
{
	dt_node_attr_assign(pcb, n, n->attr);
	return n;
}

/*
 * A copy of node n alone (not the nodes listed after it), its subtrees
 * copied with each use of params[i] replaced by a copy of args[i].
 */
static dt_node_t *
dt_node_copy_one(dt_pcb_t *pcb, const dt_node_t *n, dt_ident_t **params, dt_node_t **args, int nparams)
{
	dt_node_t *c = dt_zalloc(pcb, sizeof(*c));

	*c = *n;
	c->list = NULL;
	c->left = dt_node_copy_subst(pcb, n->left, params, args, nparams);
	c->right = dt_node_copy_subst(pcb, n->right, params, args, nparams);
	c->cond = dt_node_copy_subst(pcb, n->cond, params, args, nparams);
	c->args = dt_node_copy_subst(pcb, n->args, params, args, nparams);
	c->aggfun = dt_node_copy_subst(pcb, n->aggfun, params, args, nparams);
	c->pred = dt_node_copy_subst(pcb, n->pred, params, args, nparams);
	/* probe descriptions are matched once and shared */
	return c;
}

dt_node_t *
dt_node_copy_list(dt_pcb_t *pcb, const dt_node_t *n)
{
	return dt_node_copy_subst(pcb, n, NULL, NULL, 0);
}

dt_node_t *
dt_node_copy_subst(dt_pcb_t *pcb, const dt_node_t *n, dt_ident_t **params, dt_node_t **args, int nparams)
{
	dt_node_t *head = NULL, **pp = &head;

	for (; n != NULL; n = n->list) {
		dt_node_t *c = NULL;
		if (n->kind == DT_NODE_VAR && n->ident != NULL) {
			for (int i = 0; i < nparams; i++) {
				if (params[i] == n->ident && args[i] != NULL) {
					/* the argument as it was written: nothing in it is substituted */
					c = dt_node_copy_one(pcb, args[i], NULL, NULL, 0);
					break;
				}
			}
		}
		if (c == NULL)
			c = dt_node_copy_one(pcb, n, params, args, nparams);
		*pp = c;
		pp = &c->list;
	}
	return head;
}

dt_node_t *
dt_node_link(dt_node_t *a, dt_node_t *b)
{
	dt_node_t *p;
	if (a == NULL)
		return b;
	if (b == NULL)
		return a;
	for (p = a; p->list != NULL; p = p->list)
		continue;
	p->list = b;
	return a;
}

int
dt_node_count(const dt_node_t *n)
{
	int c = 0;
	for (; n != NULL; n = n->list)
		c++;
	return c;
}

const char *
dt_opstr(int op)
{
	switch (op) {
	case DT_TOK_COMMA: return ",";
	case DT_TOK_ELLIPSIS: return "...";
	case DT_TOK_ASGN: return "=";
	case DT_TOK_ADD_EQ: return "+=";
	case DT_TOK_SUB_EQ: return "-=";
	case DT_TOK_MUL_EQ: return "*=";
	case DT_TOK_DIV_EQ: return "/=";
	case DT_TOK_MOD_EQ: return "%=";
	case DT_TOK_AND_EQ: return "&=";
	case DT_TOK_XOR_EQ: return "^=";
	case DT_TOK_OR_EQ: return "|=";
	case DT_TOK_LSH_EQ: return "<<=";
	case DT_TOK_RSH_EQ: return ">>=";
	case DT_TOK_QUESTION: return "?";
	case DT_TOK_COLON: return ":";
	case DT_TOK_LOR: return "||";
	case DT_TOK_LXOR: return "^^";
	case DT_TOK_LAND: return "&&";
	case DT_TOK_BOR: return "|";
	case DT_TOK_XOR: return "^";
	case DT_TOK_BAND: return "&";
	case DT_TOK_EQU: return "==";
	case DT_TOK_NEQ: return "!=";
	case DT_TOK_LT: return "<";
	case DT_TOK_LE: return "<=";
	case DT_TOK_GT: return ">";
	case DT_TOK_GE: return ">=";
	case DT_TOK_LSH: return "<<";
	case DT_TOK_RSH: return ">>";
	case DT_TOK_ADD: return "+";
	case DT_TOK_SUB: return "-";
	case DT_TOK_MUL: return "*";
	case DT_TOK_DIV: return "/";
	case DT_TOK_MOD: return "%";
	case DT_TOK_LNEG: return "!";
	case DT_TOK_BNEG: return "~";
	case DT_TOK_ADDADD: return "++";
	case DT_TOK_PREINC: return "++";
	case DT_TOK_POSTINC: return "++";
	case DT_TOK_SUBSUB: return "--";
	case DT_TOK_PREDEC: return "--";
	case DT_TOK_POSTDEC: return "--";
	case DT_TOK_IPOS: return "+";
	case DT_TOK_INEG: return "-";
	case DT_TOK_DEREF: return "*";
	case DT_TOK_ADDROF: return "&";
	case DT_TOK_OFFSETOF: return "offsetof";
	case DT_TOK_SIZEOF: return "sizeof";
	case DT_TOK_STRINGOF: return "stringof";
	case DT_TOK_XLATE: return "xlate";
	case DT_TOK_LPAR: return "(";
	case DT_TOK_RPAR: return ")";
	case DT_TOK_LBRAC: return "[";
	case DT_TOK_RBRAC: return "]";
	case DT_TOK_PTR: return "->";
	case DT_TOK_DOT: return ".";
	default: return "<?>";
	}
}

/* ---- probe descriptions ------------------------------------------------- */

/*
 * A probe description's fields are read right to left, as DTrace's
 * dtrace_xstr2desc() does: the last field written lands in the name field
 * (or in the field -P/-m/-f name), earlier ones to its left.  In each field
 * the first $N, $$N or $name is replaced by the macro argument or variable;
 * an argument that was not given is an error even with -x defaultargs.
 * Failures are D_PDESC_INVAL with DTrace's reasons.
 */
static void
dt_pdesc_parse(dt_pcb_t *pcb, const char *text, dtrace_probedesc_t *pd, int line)
{
	static const size_t max[4] = {DTRACE_PROVNAMELEN, DTRACE_MODNAMELEN, DTRACE_FUNCNAMELEN,
				      DTRACE_NAMELEN};
	char *dst[4];
	int spec = pcb->opts->pspec;
	const char *end;

	memset(pd, 0, sizeof(*pd));
	dst[0] = pd->dtpd_provider;
	dst[1] = pd->dtpd_mod;
	dst[2] = pd->dtpd_func;
	dst[3] = pd->dtpd_name;

	/* a description that is a number names a probe by its id */
	if (text[0] != '\0' && strspn(text, "0123456789") == strlen(text)) {
		dt_pdesc_id_check(pcb, strtoull(text, NULL, 10), line, false);
		pd->dtpd_id = (dtrace_id_t)strtoull(text, NULL, 10);
		return;
	}
	/*
	 * Only command-line descriptions (-P -m -f -n) say which field the
	 * last word fills; the words before it fill the fields before that
	 * one, and a word left over is an overspecified description
	 * (dtrace -P dtrace:::BEGIN), as in DTrace's dtrace_xstr2desc().
	 */
	if (!(pcb->cflags & DT_C_PSPEC) || spec < DTRACE_PROBESPEC_PROVIDER || spec > DTRACE_PROBESPEC_NAME)
		spec = DTRACE_PROBESPEC_NAME;

	end = text + strlen(text);
	for (;;) {
		const char *q = end, *v, *w = "";
		const char *reason = NULL;
		char buf[32];
		size_t len, vlen = 0;

		while (q > text && q[-1] != ':')
			q--;
		len = (size_t)(end - q);
		v = memchr(q, '$', len);
		if (v != NULL) {
			const char *name = v + 1;
			const char *fe = q + len;
			len = (size_t)(v - q);
			if (name < fe && *name == '$' && fe - name > 1)
				name++; /* $$ is $ in a probe description */
			if (name < fe && isdigit((unsigned char)*name)) {
				char *e;
				errno = 0;
				long i = strtol(name, &e, 10);
				if (e > fe)
					e = (char *)fe;
				if (i < 0 || i >= pcb->sargc || errno != 0) {
					reason = "Undefined macro variable in probe description";
				} else {
					v = pcb->sargv[i];
					vlen = strlen(v);
					pcb->sflagv[i] = 1;
					w = dt_strndup(pcb, e, (size_t)(fe - e));
				}
			} else if (name < fe) {
				int64_t val = 0;
				if (dt_macro_value(pcb, name, (size_t)(fe - name), &val) != 0)
					reason = "Undefined macro variable in probe description";
				snprintf(buf, sizeof(buf), "%d", (int)val);
				v = buf;
				vlen = strlen(buf);
			} else {
				reason = "Undefined macro variable in probe description";
			}
		}
		if (reason == NULL && spec < DTRACE_PROBESPEC_PROVIDER)
			reason = "Overspecified probe description";
		if (reason == NULL && len + vlen + strlen(w) >= max[spec])
			reason = "File name too long";
		if (reason != NULL)
			dt_error(pcb, line, D_PDESC_INVAL, "invalid probe description \"%s\": %s", text, reason);
		memcpy(dst[spec], q, len);
		if (v != NULL) {
			memcpy(dst[spec] + len, v, vlen);
			memcpy(dst[spec] + len + vlen, w, strlen(w));
		}
		spec--;
		/* the ':' before a field, when it opens the text, ends it too (DTrace's --p >= s) */
		if (q == text || q - 1 == text)
			break;
		end = q - 1;
	}
}

/*
 * The value of the integer macro variable name[0..len) ($pid, $egid, ...):
 * DTrace's table (dt_open.c _dtrace_macros) has egid, euid, gid, pid, pgid,
 * ppid, projid, sid, taskid, target and uid; projid and taskid are Solaris
 * projects and tasks, 0 elsewhere.  -1 when there is no such macro.
 */
int
dt_macro_value(const dt_pcb_t *pcb, const char *name, size_t len, int64_t *vp)
{
	const dt_cmacros_t *m = &pcb->opts->macros;
	char n[8];

	if (len >= sizeof(n))
		return -1;
	memcpy(n, name, len);
	n[len] = '\0';
	if (strcmp(n, "pid") == 0)
		*vp = m->set ? m->pid : (int64_t)getpid();
	else if (strcmp(n, "ppid") == 0)
		*vp = m->set ? m->ppid : (int64_t)getppid();
	else if (strcmp(n, "pgid") == 0)
		*vp = m->set ? m->pgid : (int64_t)getpgrp();
	else if (strcmp(n, "sid") == 0)
		*vp = m->set ? m->sid : (int64_t)getsid(0);
	else if (strcmp(n, "uid") == 0)
		*vp = m->set ? m->uid : (int64_t)getuid();
	else if (strcmp(n, "gid") == 0)
		*vp = m->set ? m->gid : (int64_t)getgid();
	else if (strcmp(n, "euid") == 0)
		*vp = m->set ? m->euid : (int64_t)geteuid();
	else if (strcmp(n, "egid") == 0)
		*vp = m->set ? m->egid : (int64_t)getegid();
	else if (strcmp(n, "target") == 0)
		*vp = m->set ? m->target : 0;
	else if (strcmp(n, "projid") == 0 || strcmp(n, "taskid") == 0)
		*vp = 0;
	else
		return -1;
	return 0;
}

/*
 * A probe id as a description: in range, allowed for this kind of
 * description, and (with `exists') the id of a probe.  The parser checks
 * each id as it reads it, as DTrace's dt_node_pdesc_by_id() does, so an
 * unknown id is reported before what is checked once the program is read
 * (an extraneous macro argument: dtrace -i 99999 x).
 */
void
dt_pdesc_id_check(dt_pcb_t *pcb, unsigned long long id, int line, bool exists)
{
	int spec = pcb->opts->pspec;

	if (id > UINT32_MAX)
		dt_error(pcb, line, D_PDESC_INVAL, "identifier %llu exceeds maximum probe id", id);
	/* -P, -m and -f name a provider, module or function, never a probe id */
	if ((pcb->cflags & DT_C_PSPEC) && spec >= DTRACE_PROBESPEC_PROVIDER && spec < DTRACE_PROBESPEC_NAME) {
		static const char *const what[] = {"providers", "modules", "functions"};
		dt_error(pcb, line, D_PDESC_INVAL, "probe identifier %llu not permitted when specifying %s",
			 id, what[spec]);
	}
	/* no probe has id 0 (DTRACE_IDNONE): DTrace's lookup of it fails */
	if (id == DTRACE_IDNONE)
		dt_error(pcb, line, D_PDESC_INVAL, "invalid probe identifier 0: Unknown probe identifier");
	if (exists && pcb->opts->ops.probe_match != NULL) {
		dtrace_probedesc_t pd, first;
		memset(&pd, 0, sizeof(pd));
		pd.dtpd_id = (dtrace_id_t)id;
		if (pcb->opts->ops.probe_match(pcb->opts->ops.arg, &pd, &first) <= 0)
			dt_error(pcb, line, D_PDESC_INVAL, "invalid probe identifier %llu: Unknown probe identifier",
				 id);
	}
}

dt_node_t *
dt_pdesc_node(dt_pcb_t *pcb, const char *text, int line)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_PDESC);
	n->string = text;
	n->line = line > 0 ? line : n->line;
	return n;
}

void
dt_pdesc_resolve(dt_pcb_t *pcb, dt_node_t *n, dtrace_probedesc_t *pd)
{
	dt_pdesc_parse(pcb, n->string, pd, n->line);
	if (pcb->opts->ops.probe_fix != NULL)
		pcb->opts->ops.probe_fix(pcb->opts->ops.arg, pd);
}

/* ---- clauses ----------------------------------------------------------- */

void
dt_clause_add(dt_pcb_t *pcb, dt_node_t *pdescs, dt_node_t *pred, dt_node_t *acts)
{
	dt_node_t *c = dt_node_new(pcb, DT_NODE_CLAUSE);
	c->pdescs = pdescs;
	c->pred = pred;
	c->args = acts;
	/* where the clause ends (its closing brace): DTrace's line for D_PRED_SCALAR */
	c->value = (uint64_t)(pcb->scanner != NULL ? dt_lex_lineno(pcb) : pcb->lineno);
	c->line = pdescs->line;
	if (pcb->lastclause == NULL)
		pcb->clauses = c;
	else
		pcb->lastclause->list = c;
	pcb->lastclause = c;
	dt_prog_add(pcb, c);
}

/*
 * The program as DTrace's parser builds it, its clauses, inlines,
 * translators and providers in order (-x tree prints it).
 */
void
dt_prog_add(dt_pcb_t *pcb, dt_node_t *item)
{
	dt_node_t *d = dt_node_new(pcb, DT_NODE_PROG);
	d->left = item;
	pcb->root = dt_node_link(pcb->root, d);
}

/* ---- #pragma and control lines -------------------------------------------- */

/*
 * A control line is split as DTrace's lexer does it: words separated by
 * blanks, each an integer (decimal, octal or hex, with u/l suffixes), a
 * "quoted string" or else an identifier (any other run of characters).
 */
struct dt_pragpend {
	struct dt_pragpend *next;
	const char *name, *prname;
	int line;
	bool isattr;
	bool used;               /* applied to an identifier declared after it */
	dtrace_attribute_t attr; /* #pragma D attributes */
};

/* #pragma D attributes ATTR provider NAME PART, in program order */
struct dt_prvattr {
	struct dt_prvattr *next;
	const char *name;
	int part; /* provider, module, function, name, args */
	dtrace_attribute_t attr;
};

typedef enum { DT_PTOK_IDENT, DT_PTOK_STRING, DT_PTOK_INT } dt_ptok_kind_t;

typedef struct dt_ptok {
	dt_ptok_kind_t kind;
	char *s;
	uint64_t v;
} dt_ptok_t;

#define DT_PRAGMA_MAXTOK 64

static bool
dt_pragma_isint(const char *s, uint64_t *vp)
{
	char *e;
	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*vp = strtoull(s, &e, 0);
	/* what the lexer's integer pattern accepts: digits then [uU]?[lL]?[lL]? */
	if (*e == 'u' || *e == 'U')
		e++;
	if (*e == 'l' || *e == 'L')
		e++;
	if (*e == 'l' || *e == 'L')
		e++;
	return *e == '\0' && errno == 0;
}

static int
dt_pragma_split(dt_pcb_t *pcb, char *s, dt_ptok_t *t)
{
	int n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\f' || *s == '\v' || *s == '\r')
			s++;
		if (*s == '\0' || n == DT_PRAGMA_MAXTOK)
			return n;
		if (*s == '"') {
			char *b = ++s;
			while (*s != '\0' && *s != '"') {
				if (*s == '\\' && s[1] != '\0')
					s++;
				s++;
			}
			if (*s != '"')
				dt_error(pcb, 0, D_STR_NL, "newline encountered in string literal");
			*s++ = '\0';
			t[n].kind = DT_PTOK_STRING;
			t[n++].s = b;
			continue;
		}
		char *b = s;
		while (*s != '\0' && *s != '"' && *s != ' ' && *s != '\t' && *s != '\f' && *s != '\v' &&
		       *s != '\r')
			s++;
		char c = *s;
		*s = '\0';
		t[n].s = dt_strdup(pcb, b);
		*s = c;
		t[n].kind = dt_pragma_isint(t[n].s, &t[n].v) ? DT_PTOK_INT : DT_PTOK_IDENT;
		n++;
	}
}

static void
dt_pragma_option(dt_pcb_t *pcb, dt_ptok_t *t, int n)
{
	char *name, *val;
	dt_cprog_t *prog = pcb->prog;
	char errbuf[256] = "";

	if (n < 1 || t[0].kind != DT_PTOK_IDENT)
		dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma option <option>=<val>");
	if (n > 1)
		dt_error(pcb, 0, D_PRAGMA_MALFORM, "superfluous arguments specified for #pragma option");
	name = t[0].s;
	if ((val = strchr(name, '=')) != NULL)
		*val++ = '\0';
	/* a loaded library's options were set when it was loaded, once */
	bool loaded = pcb->library != NULL && pcb->opts->library == NULL;
	if (!loaded && pcb->opts->ops.setopt != NULL &&
	    pcb->opts->ops.setopt(pcb->opts->ops.arg, name, val, errbuf, sizeof(errbuf)) != 0) {
		if (val != NULL)
			dt_error(pcb, 0, D_PRAGMA_OPTSET, "failed to set option '%s' to '%s': %s", name, val,
				 errbuf[0] ? errbuf : "Invalid option name");
		dt_error(pcb, 0, D_PRAGMA_OPTSET, "failed to set option '%s': %s", name,
			 errbuf[0] ? errbuf : "Invalid option name");
	}
	/* options that change how the compiler itself works */
	if (strcmp(name, "defaultargs") == 0)
		pcb->cflags |= DT_C_DEFARG;
	else if (strcmp(name, "argref") == 0)
		pcb->cflags |= DT_C_ARGREF;
	else if (strcmp(name, "zdefs") == 0)
		pcb->cflags |= DT_C_ZDEFS;
	else if (strcmp(name, "errtags") == 0)
		pcb->cflags |= DT_C_ETAGS;
	else if (strcmp(name, "empty") == 0)
		pcb->cflags |= DT_C_EMPTY;
	else if (strcmp(name, "pspec") == 0)
		pcb->cflags |= DT_C_PSPEC;
	else if (strcmp(name, "amin") == 0 && !loaded && dt_str2attr(val, &pcb->amin) == 0)
		pcb->cflags |= DT_C_EATTR; /* DTrace's dt_opt_amin() in a compilation: this one only */
	else if (strcmp(name, "version") == 0 && val != NULL) {
		/* setopt accepted it: a defined version, no newer than the current one */
		uint32_t v;
		if (dt_version_str2num(val, &v) == 0 && v < pcb->vmax)
			dt_idents_reduce(pcb, v);
	}
	else if (strcmp(name, "tree") == 0 && val != NULL && atoi(val) > 0)
		pcb->treedump = atoi(val); /* DTrace's dt_opt_tree(): the passes still to come dump */
	else if ((strcmp(name, "iregs") == 0 || strcmp(name, "tregs") == 0) && val != NULL && atoi(val) > 0) {
		/* setopt accepted it; the code not yet generated is held to it */
		int *vp = name[0] == 'i' ? &pcb->iregs : &pcb->tregs;
		*vp = atoi(val);
	}
	else if (strcmp(name, "strsize") == 0 && val != NULL) {
		char *e;
		unsigned long long v = strtoull(val, &e, 0);
		if (*e == 'k' || *e == 'K')
			v <<= 10;
		else if (*e == 'm' || *e == 'M')
			v <<= 20;
		if (v > 0 && v < UINT32_MAX) {
			pcb->strsize = (uint32_t)v;
			/*
			 * DTrace's dt_opt_strsize() resizes the string type itself
			 * (ctf_set_array): sizeof (string) and the structs declared
			 * from here on see the new size.
			 */
			if (pcb->t_string != NULL)
				pcb->t_string->size = pcb->strsize;
		}
	}
	dt_coption_t *o = realloc(prog->options, (prog->noptions + 1) * sizeof(*o));
	if (o == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	prog->options = o;
	o[prog->noptions].name = strdup(name);
	o[prog->noptions].value = val != NULL ? strdup(val) : NULL;
	o[prog->noptions].line = pcb->lineno;
	prog->noptions++;
}

/* "1.2" or "1.2.3": DTrace's dt_version_str2num() */
static bool
dt_pragma_version_ok(const char *s)
{
	int dots = 0;
	unsigned long n;
	char *e;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return false;
		n = strtoul(s, &e, 10);
		if ((dots == 0 && n > 0xff) || (dots == 1 && n > 0xfff) || (dots == 2 && n > 0xfff))
			return false;
		s = e;
		if (*s == '\0')
			return true;
		if (*s != '.' || ++dots > 2)
			return false;
		s++;
	}
}

/* A #pragma D attributes or binding for a name not declared yet (newest first). */
static struct dt_pragpend *
dt_pragma_pend(dt_pcb_t *pcb, const char *name, const char *prname, dtrace_attribute_t attr)
{
	struct dt_pragpend *pp = dt_zalloc(pcb, sizeof(*pp));

	pp->name = dt_strdup(pcb, name);
	pp->prname = strcmp(prname, "attributes") == 0 ? "attributes" : "binding";
	pp->line = pcb->lineno;
	pp->isattr = true;
	pp->attr = attr;
	pp->next = pcb->pragpend;
	pcb->pragpend = pp;
	return pp;
}

/*
 * DTrace's dt_pragma_apply(): the pending pragmas for the name, newest
 * first, so that the oldest one is the one that stays.
 */
void
dt_pragma_apply(dt_pcb_t *pcb, dt_ident_t *idp)
{
	for (struct dt_pragpend *pp = pcb->pragpend; pp != NULL; pp = pp->next) {
		if (pp->used || strcmp(pp->name, idp->name) != 0)
			continue;
		if (pp->isattr)
			idp->attr = pp->attr;
		pp->used = true;
	}
}

/* Does the host (or the program's own declarations) know provider `name'? (dt_provider_lookup) */
bool
dt_provider_known(dt_pcb_t *pcb, const char *name)
{
	const dt_cops_t *ops = &pcb->opts->ops;
	dtrace_pattr_t pa;

	for (size_t i = 0; i < pcb->prog->nproviders; i++)
		if (strcmp(pcb->prog->providers[i].name, name) == 0)
			return true;
	if (ops->provider_attr != NULL)
		return ops->provider_attr(ops->arg, name, &pa) == 0;
	if (ops->probe_match != NULL) {
		dtrace_probedesc_t pd;
		memset(&pd, 0, sizeof(pd));
		snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s", name);
		return ops->probe_match(ops->arg, &pd, NULL) > 0;
	}
	return true; /* without a host every provider exists */
}

int
dt_provider_pattr(dt_pcb_t *pcb, const char *name, dtrace_pattr_t *pap)
{
	const dt_cops_t *ops = &pcb->opts->ops;

	if (ops->provider_attr == NULL || ops->provider_attr(ops->arg, name, pap) != 0) {
		size_t i = 0;
		/* one the program declares: DTrace's dt_provider_create() makes it all
		 * _dtrace_prvattr */
		while (i < pcb->prog->nproviders && strcmp(pcb->prog->providers[i].name, name) != 0)
			i++;
		if (i == pcb->prog->nproviders)
			return -1;
		pap->dtpa_provider = pap->dtpa_mod = pap->dtpa_func = pap->dtpa_name =
		    pap->dtpa_args = dt_attr_prv;
	}
	for (struct dt_prvattr *pv = pcb->prvattrs; pv != NULL; pv = pv->next) {
		if (strcmp(pv->name, name) != 0)
			continue;
		dtrace_attribute_t *a[] = {&pap->dtpa_provider, &pap->dtpa_mod, &pap->dtpa_func,
		                           &pap->dtpa_name, &pap->dtpa_args};
		*a[pv->part] = pv->attr;
	}
	return 0;
}

/*
 * #pragma D attributes / binding: a name defined by DTrace itself (a built-in
 * variable, function or action) is outside the program's scope; a name the
 * program itself declares gets the attributes or version.
 */
static void
dt_pragma_binding(dt_pcb_t *pcb, const char *prname, dt_ptok_t *t, int n)
{
	bool attrs = strcmp(prname, "attributes") == 0;
	dtrace_attribute_t attr = dt_attr_def;
	const char *name;

	if (attrs) {
		if (n < 2 || t[0].kind != DT_PTOK_IDENT || t[1].kind != DT_PTOK_IDENT)
			dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma %s <attributes> <ident>", prname);
		if (dt_str2attr(t[0].s, &attr) != 0)
			dt_error(pcb, 0, D_PRAGMA_INVAL, "invalid attributes specified by #pragma %s", prname);
		name = t[1].s;
		if (strcmp(name, "provider") == 0) {
			/* attributes of a provider's parts: provider NAME COMPONENT */
			static const char *const parts[] = {"provider", "module", "function", "name", "args"};
			if (n < 4 || t[2].kind != DT_PTOK_IDENT || t[3].kind != DT_PTOK_IDENT)
				dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma %s <attributes> <ident>",
					 prname);
			const char *part = t[3].s;
			name = t[2].s;
			if (dt_provider_known(pcb, name)) {
				int i = 0;
				while (i < 5 && strcmp(part, parts[i]) != 0)
					i++;
				/* DTrace names the provider where the component belongs, and the reverse */
				if (i == 5)
					dt_error(pcb, 0, D_PRAGMA_INVAL,
						 "invalid component \"%s\" in attribute #pragma for provider %s",
						 name, part);
				struct dt_prvattr *pv = dt_zalloc(pcb, sizeof(*pv)), **pp = &pcb->prvattrs;
				pv->name = dt_strdup(pcb, name);
				pv->part = i;
				pv->attr = attr;
				while (*pp != NULL)
					pp = &(*pp)->next;
				*pp = pv;
				dt_cprog_t *prog = pcb->prog;
				dt_cprvattr_t *a = realloc(prog->prvattrs, (prog->nprvattrs + 1) * sizeof(*a));
				if (a == NULL)
					dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
				prog->prvattrs = a;
				memset(&a[prog->nprvattrs], 0, sizeof(*a));
				snprintf(a[prog->nprvattrs].name, sizeof(a->name), "%s", name);
				a[prog->nprvattrs].part = i;
				a[prog->nprvattrs].attr = attr;
				prog->nprvattrs++;
				return;
			}
			/* no such provider: DTrace keeps the pragma for an identifier of its name */
			dt_pragma_pend(pcb, name, "attributes", attr);
			return;
		}
	} else {
		if (n < 2 || t[0].kind != DT_PTOK_STRING || t[1].kind != DT_PTOK_IDENT)
			dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma %s \"version\" <ident>", prname);
		if (!dt_pragma_version_ok(t[0].s))
			dt_error(pcb, 0, D_PRAGMA_INVAL, "invalid version string specified by #pragma %s", prname);
		name = t[1].s;
	}
	dt_ident_t *idp = dt_builtin_lookup(pcb, name);
	if (idp == NULL)
		idp = dt_idtab_lookup(&pcb->globals, name);
	/* DTrace's own names, and those of another compilation: a D library's for a program */
	if (idp != NULL && ((idp->flags & DT_IDFLG_BUILTIN) || idp->lib != pcb->library))
		dt_error(pcb, 0, D_PRAGMA_SCOPE, "#pragma %s cannot modify entity defined outside program scope",
			 prname);
	if (idp != NULL) {
		if (attrs)
			idp->attr = attr;
		return;
	}
	/* a name the program has yet to declare: it must do so before the end */
	if (attrs)
		dt_pragma_pend(pcb, name, prname, attr);
	else
		dt_pragma_pend(pcb, name, prname, dt_attr_def)->isattr = false;
}

/* After parsing: a #pragma attributes/binding whose name was never declared. */
static void
dt_pragma_unused(dt_pcb_t *pcb)
{
	struct dt_pragpend *first = NULL;
	for (struct dt_pragpend *pp = pcb->pragpend; pp != NULL; pp = pp->next) {
		dt_ident_t *idp = dt_builtin_lookup(pcb, pp->name);
		if (!pp->used && (idp == NULL || (idp->flags & DT_IDFLG_BUILTIN)) &&
		    dt_idtab_lookup(&pcb->globals, pp->name) == NULL)
			first = pp; /* the list is newest first: report the earliest */
	}
	if (first != NULL)
		dt_error(pcb, first->line, D_PRAGMA_UNUSED, "unused #pragma %s", first->prname);
}

static void
dt_pragma_depends(dt_pcb_t *pcb, const char *prname, dt_ptok_t *t, int n)
{
	if (n < 2 || t[0].kind != DT_PTOK_IDENT || t[1].kind != DT_PTOK_IDENT)
		dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma %s <class> <name>", prname);
	const char *cls = t[0].s, *name = t[1].s;
	bool found = true;
	if (strcmp(cls, "provider") == 0) {
		if (pcb->opts->ops.probe_match != NULL) {
			dtrace_probedesc_t pd;
			memset(&pd, 0, sizeof(pd));
			snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s", name);
			found = pcb->opts->ops.probe_match(pcb->opts->ops.arg, &pd, NULL) > 0;
		}
	} else if (strcmp(cls, "module") == 0) {
		/* a module with type information: one of the process's loaded objects */
		found = dt_modtypes_have_module(pcb, name);
	} else if (strcmp(cls, "library") == 0) {
		/*
		 * Only a D library (a file of a library directory) may name
		 * the libraries it needs, found in the library directories in
		 * their order; the consumer has loaded them first, or failed
		 * to (dt_program.c).
		 */
		const dt_copts_t *o = pcb->opts;
		char *path = NULL;
		struct stat st;
		int i;

		if (pcb->library == NULL)
			dt_error(pcb, 0, D_PRAGMA_DEPEND, "main program may not explicitly depend on a library");
		for (i = 0; i < o->nlibdirs; i++) {
			size_t len = strlen(o->libdirs[i]) + strlen(name) + 2;
			path = dt_zalloc(pcb, len);
			(void)snprintf(path, len, "%s/%s", o->libdirs[i], name);
			if (stat(path, &st) == 0)
				break;
		}
		if (i == o->nlibdirs)
			dt_error(pcb, 0, D_PRAGMA_DEPEND, "failed to find dependency in libpath: %s", name);
		for (i = 0; i < o->nlibs && strcmp(o->libs[i].path, path) != 0; i++)
			continue;
		if (i == o->nlibs)
			dt_error(pcb, 0, D_PRAGMA_DEPEND, "program requires library \"%s\" which failed to load",
				 path);
	} else {
		dt_error(pcb, 0, D_PRAGMA_INVAL, "invalid class %s specified by #pragma %s", cls, prname);
	}
	if (!found)
		dt_error(pcb, 0, D_PRAGMA_DEPEND, "program requires %s %s", cls, name);
}

/*
 * A control line: # N "file" (cpp's line markers), #line, #error, #ident,
 * #pragma D ... .  As in C, #pragma for another compiler and a lone # are
 * ignored.  Errors name the directive's line, except those DTrace reports
 * before it steps back over the line's newline (a directive that does not
 * start with a name, a malformed #line).
 */
void
dt_pragma(dt_pcb_t *pcb, char *line)
{
	dt_ptok_t t[DT_PRAGMA_MAXTOK];
	char *s = strchr(line, '#') + 1;
	int n = dt_pragma_split(pcb, s, t), i = 0;
	enum { DIR, SUB, DCP } kind = DIR;
	int here = pcb->lineno;

	for (; i < n; i++) {
		const char *w = t[i].s;
		bool isline = t[i].kind == DT_PTOK_INT;
		if (!isline && t[i].kind != DT_PTOK_IDENT)
			dt_error(pcb, here + 1, D_PRAGCTL_INVAL, "invalid control directive");
		if (!isline && kind == DIR && strcmp(w, "pragma") == 0) {
			kind = SUB;
			continue;
		}
		if (!isline && kind == SUB && strcmp(w, "D") == 0) {
			kind = DCP;
			continue;
		}
		if (isline || strcmp(w, "line") == 0) {
			/* # N ["file" [state]] and #line N ["file" [state]] */
			int a = isline ? i : i + 1;
			int at = isline ? here + 1 : here;
			if (a >= n || t[a].kind != DT_PTOK_INT || (a + 1 < n && t[a + 1].kind != DT_PTOK_STRING) ||
			    (a + 2 < n && t[a + 2].kind != DT_PTOK_INT))
				dt_error(pcb, at, D_PRAGMA_MALFORM, "malformed #%s <line> [ [\"file\"] state ]",
					 "line");
			pcb->lineno = (int)t[a].v - 1;
			if (a + 1 < n) {
				const char *f = t[a + 1].s;
				/* cpp names the input "<stdin>": keep DTrace's plain "line N" */
				if (strcmp(f, "<stdin>") != 0 && strcmp(f, "<command-line>") != 0 &&
				    strcmp(f, "<built-in>") != 0 && pcb->cppbuf != NULL &&
				    (pcb->opts->filename == NULL || strcmp(f, pcb->opts->filename) != 0))
					pcb->filetag = dt_strdup(pcb, f);
				else
					pcb->filetag = NULL;
			}
			return;
		}
		if (strcmp(w, "error") == 0) {
			/* the words that follow, each with a blank after it */
			char msg[1024] = "";
			size_t len = 0;
			for (int j = i + 1; j < n; j++) {
				if (t[j].kind == DT_PTOK_INT)
					continue;
				len += (size_t)snprintf(msg + len, len < sizeof(msg) ? sizeof(msg) - len : 0, "%s ",
							t[j].s);
				if (len >= sizeof(msg))
					len = sizeof(msg) - 1;
			}
			dt_error(pcb, here, D_PRAGERR, "#%s: %s", w, msg);
		}
		if (strcmp(w, "ident") == 0)
			return;
		if (kind == DCP && strcmp(w, "option") == 0) {
			dt_pragma_option(pcb, t + i + 1, n - i - 1);
			return;
		}
		if (kind == DCP && (strcmp(w, "attributes") == 0 || strcmp(w, "binding") == 0)) {
			dt_pragma_binding(pcb, w, t + i + 1, n - i - 1);
			return;
		}
		if (kind == DCP && strcmp(w, "depends_on") == 0) {
			dt_pragma_depends(pcb, w, t + i + 1, n - i - 1);
			return;
		}
		if (kind == DIR)
			dt_error(pcb, here, D_PRAGCTL_INVAL, "invalid control directive: #%s", w);
		if (kind == DCP)
			dt_error(pcb, here, D_PRAGMA_INVAL, "invalid D pragma: %s", w);
		return; /* K&R: unknown pragmas are ignored */
	}
}

/* ---- the C preprocessor (-C) ------------------------------------------------- */

/*
 * What cpp said on its standard error, passed on but for the redefinition
 * of __STDC__ that -X asked for (and the note GNU cpp adds to it).
 */
static void
dt_cpp_stderr(FILE *fp)
{
	char line[4096];
	bool skipnote = false;

	rewind(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strstr(line, "<command-line>: warning: \"__STDC__\" redefined") == line) {
			skipnote = true;
			continue;
		}
		if (skipnote && strstr(line, "note: this is the location of the previous definition") != NULL) {
			skipnote = false;
			continue;
		}
		skipnote = false;
		(void)fputs(line, stderr);
	}
	(void)fflush(stderr);
}

/* The preprocessor for -C, named by the build (DTRACE_CPP): a cross build
 * names the target's, whose headers match the -D names below. */
#ifndef DT_DEFAULT_CPP
#define DT_DEFAULT_CPP "cpp"
#endif

static char *
dt_run_cpp(dt_pcb_t *pcb, const char *text, size_t len, size_t *outlen)
{
	FILE *errfp;
	int in[2], out[2];
	pid_t pid;
	const dt_copts_t *o = pcb->opts;
	const char *cpp = o->cpp != NULL ? o->cpp : DT_DEFAULT_CPP;
	char **argv = calloc((size_t)o->cpp_argc + 32, sizeof(char *));
	char verdef[40];
	int argc = 0, status;
	size_t cap = len * 2 + 4096, n = 0;
	char *buf;

	if (argv == NULL || pipe(in) != 0 || pipe(out) != 0)
		dt_error(pcb, 0, D_CPP, "failed to run preprocessor: %s", strerror(errno));
	/*
	 * An interpreter line (#!/usr/sbin/dtrace -Cs) is no directive cpp
	 * knows: as DTrace's dt_preproc() does, cpp's input starts at the
	 * newline that ends it, so that the lines after it keep their numbers.
	 */
	if (len >= 2 && text[0] == '#' && text[1] == '!') {
		const char *nl = memchr(text, '\n', len);
		size_t skip = nl != NULL ? (size_t)(nl - text) : len;
		text += skip;
		len -= skip;
	}
	/*
	 * DTrace runs cpp by its base name (dt_cpp_argv[0]), with the names it
	 * defines for every D program first (dtrace_open()): a Unix, System V
	 * flavoured, D, whose own pointers are 64 bits wide (__SUNW_D_64 is
	 * the consumer's word size, whatever the data model), and the
	 * instruction set as the data model sees it (illumos -D__amd64 or
	 * -D__i386; FreeBSD tells its cpp -m64 or -m32).  Nothing is undefined:
	 * cpp's own names (__linux__, __x86_64__, __LP64__, ...) are there, as
	 * they are for DTrace's cpp.
	 */
	const char *base = strrchr(cpp, '/');
	argv[argc++] = (char *)(base != NULL ? base + 1 : cpp);
	argv[argc++] = "-D__unix";
	argv[argc++] = "-D__SVR4";
	argv[argc++] = "-D__SUNW_D=1";
	argv[argc++] = "-D__SUNW_D_64";
#if defined(__x86_64__) || defined(__i386__)
	argv[argc++] = o->ilp32 ? "-D__i386" : "-D__amd64";
	argv[argc++] = o->ilp32 ? "-m32" : "-m64";
#endif
#if defined(__linux__)
	/* the host, as Oracle's DTrace for Linux names it (GNU cpp has __linux too) */
	argv[argc++] = "-D__linux";
#endif
	/*
	 * Not GCC: headers then keep to the C the D compiler reads (glibc's
	 * <sys/cdefs.h> drops __attribute__ and friends for other compilers),
	 * as the system headers of DTrace's own hosts do for its cpp.
	 */
	argv[argc++] = "-U__GNUC__";
	/* dtrace's -D, -U, -I and -H, in their order, then what dt_preproc() adds */
	for (int i = 0; i < o->cpp_argc; i++)
		argv[argc++] = o->cpp_argv[i];
	/* the program's D version, as DTrace's dt_preproc() defines it */
	(void)snprintf(verdef, sizeof(verdef), "-D__SUNW_D_VERSION=0x%08x", (unsigned)pcb->vmax);
	argv[argc++] = verdef;
	/*
	 * -X: DTrace's preprocessor is told the ISO C conformance: __STDC__
	 * is 0 for a and t, 1 for c; s is K&R C, which has no __STDC__ and
	 * preprocesses the traditional way.  GNU cpp predefines __STDC__ and
	 * warns, whatever its flags, that it is redefined: that warning alone
	 * is kept from cpp's standard error (dt_cpp_stderr).
	 */
	switch (o->stdc) {
	case 'c':
		argv[argc++] = "-D__STDC__=1";
		break;
	case 's':
		argv[argc++] = "-traditional-cpp";
		break;
	default:
		argv[argc++] = "-D__STDC__=0";
		break;
	}
	argv[argc] = NULL;
	fflush(NULL);
	errfp = tmpfile();
	pid = fork();
	if (pid < 0)
		dt_error(pcb, 0, D_CPP, "failed to run preprocessor: %s", strerror(errno));
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (errfp != NULL)
			dup2(fileno(errfp), 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execvp(cpp, argv);
		_exit(127);
	}
	free(argv);
	close(in[0]);
	close(out[1]);
	/* the writer may block on a full pipe: write from a child of our own */
	pid_t wpid = fork();
	if (wpid == 0) {
		close(out[0]);
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(in[1], text + off, len - off);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		_exit(0);
	}
	close(in[1]);
	buf = malloc(cap);
	for (;;) {
		if (n + 4096 > cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
		ssize_t r = read(out[0], buf + n, cap - n - 1);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(out[0]);
	if (wpid > 0)
		waitpid(wpid, NULL, 0);
	waitpid(pid, &status, 0);
	if (errfp != NULL) {
		dt_cpp_stderr(errfp);
		fclose(errfp);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(buf);
		/* cpp has said why on standard error; DTrace adds EDT_CPPERR's words */
		dt_error_plain(pcb, D_CPP, "Preprocessor failed to process input program");
	}
	buf[n] = '\0';
	*outlen = n;
	char *r = dt_strndup(pcb, buf, n);
	free(buf);
	return r;
}

/* ---- entry points --------------------------------------------------------------- */

static void
dt_compile_body(dt_pcb_t *pcb)
{
	const dt_copts_t *opts = pcb->opts;
	const char *text = pcb->src;
	size_t len = pcb->srclen;

	dt_types_init(pcb);
	dt_idents_init(pcb);
	pcb->sargc = opts->argc;
	pcb->sargv = dt_zalloc(pcb, sizeof(char *) * ((size_t)opts->argc + 1));
	pcb->sflagv = dt_zalloc(pcb, (size_t)opts->argc + 1);
	for (int i = 0; i < opts->argc; i++)
		pcb->sargv[i] = dt_strdup(pcb, opts->argv[i]);
	if (pcb->sargc > 0)
		pcb->sflagv[0] = 1; /* $0 need not be used */

	/*
	 * The libraries' declarations come first, each read as the file it
	 * is (its errors name it); what the libraries' clauses would enable
	 * is not part of this program.
	 */
	for (int i = 0; i < opts->nlibs; i++) {
		bool fromfile = pcb->fromfile;

		pcb->fromfile = true;
		pcb->filetag = dt_strdup(pcb, opts->libs[i].path);
		pcb->library = pcb->filetag;
		pcb->lineno = 1;
		if (dt_lex_init(pcb, opts->libs[i].text, opts->libs[i].len) != 0)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		dt_yyparse(pcb);
		dt_lex_fini(pcb);
		pcb->clauses = pcb->lastclause = pcb->root = NULL;
		pcb->filetag = NULL;
		pcb->library = NULL;
		pcb->fromfile = fromfile;
		pcb->lineno = 1;
	}
	if (opts->argtypes != NULL) {
		dt_args_names(pcb);
		return;
	}
	if (opts->library != NULL) {
		/* the text is a library being loaded: a file, its errors name it */
		pcb->filetag = dt_strdup(pcb, opts->library);
		pcb->library = pcb->filetag;
		pcb->fromfile = true;
		pcb->cflags &= ~(uint32_t)DT_C_CPP;
	}

	/* DTrace preprocesses files only: -C does nothing to -n programs */
	if ((pcb->cflags & DT_C_CPP) && pcb->fromfile) {
		text = dt_run_cpp(pcb, text, len, &len);
		pcb->cppbuf = (char *)text;
	}
	if (dt_lex_init(pcb, text, len) != 0)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	dt_yyparse(pcb);
	/* errors after parsing carry the line the lexer stopped at, as DTrace's do */
	pcb->lineno = dt_lex_lineno(pcb);
	dt_lex_fini(pcb);
	pcb->region = NULL;
	pcb->parsed = true;
	dt_treedump_parsed(pcb);
	dt_treedump_program(pcb, 1);

	/*
	 * DTrace's D_EMPTY: a program of no clause, inline, translator or
	 * provider (a file of provider definitions alone is one, for dtrace -h);
	 * declarations of variables and types leave nothing in the program.
	 */
	if (pcb->root == NULL && !(pcb->cflags & DT_C_EMPTY))
		dt_error(pcb, 0, D_EMPTY, "empty D program translation unit");
	dt_pragma_unused(pcb);

	/*
	 * DTrace expands the $N of probe descriptions as it parses them, and
	 * that use references the argument (dtrace_xstr2desc): pid$1:::entry
	 * uses $1.  Descriptions are resolved later here, so mark them now.
	 */
	for (dt_node_t *c = pcb->clauses; c != NULL; c = c->list) {
		for (dt_node_t *pn = c->pdescs; pn != NULL; pn = pn->list) {
			const char *f = pn->string;
			while (f != NULL && *f != '\0') {
				const char *fe = strchr(f, ':'), *v = strchr(f, '$');
				if (fe == NULL)
					fe = f + strlen(f);
				if (v != NULL && v < fe) {
					if (v[1] == '$' && fe - v > 2)
						v++;
					if (isdigit((unsigned char)v[1])) {
						long i = strtol(v + 1, NULL, 10);
						if (i >= 0 && i < pcb->sargc)
							pcb->sflagv[i] = 1;
					}
				}
				f = *fe == ':' ? fe + 1 : NULL;
			}
		}
	}

	/*
	 * DTrace checks only the last macro argument: it must be referenced
	 * unless -x argref (so a program using $2 alone may take two).
	 */
	if (pcb->sargc > 1 && !(pcb->cflags & DT_C_ARGREF) && !pcb->sflagv[pcb->sargc - 1])
		dt_error(pcb, 0, D_MACRO_UNUSED, "extraneous argument '%s' ($%d is not referenced)",
			 pcb->sargv[pcb->sargc - 1], pcb->sargc - 1);
	dt_compile_program(pcb);
}

static int
dt_compile_run(dt_pcb_t *pcb)
{
	if (setjmp(pcb->jmp) != 0)
		return -1;
	dt_compile_body(pcb);
	return 0;
}

/* DTrace's dt_compile() ends, failed or not, with pass 3's dump of a parsed program */
static void
dt_compile_treedump(dt_pcb_t *pcb)
{
	if (pcb->parsed && setjmp(pcb->jmp) == 0)
		dt_treedump_program(pcb, 3);
}

static dt_cprog_t *
dt_compile_text(const char *text, size_t len, const dt_copts_t *opts, bool fromfile)
{
	dt_copts_t defopts;
	dt_cprog_t *prog = calloc(1, sizeof(*prog));
	dt_pcb_t *pcb = calloc(1, sizeof(*pcb));

	if (prog == NULL || pcb == NULL || (prog->impl = calloc(1, sizeof(*prog->impl))) == NULL) {
		if (prog != NULL)
			free(prog->impl);
		free(prog);
		free(pcb);
		return NULL;
	}
	if (opts == NULL) {
		memset(&defopts, 0, sizeof(defopts));
		defopts.pspec = DTRACE_PROBESPEC_NAME;
		opts = &defopts;
	}
	pcb->prog = prog;
	pcb->opts = opts;
	pcb->cflags = opts->flags;
	pcb->amin = opts->amin;
	pcb->strsize = opts->strsize != 0 ? opts->strsize : DTRACE_STRSIZE_DEFAULT;
	pcb->vmax = opts->vmax != 0 ? opts->vmax : DT_VERS_LATEST;
	pcb->iregs = opts->iregs > 0 ? opts->iregs : DIF_DIR_NREGS;
	pcb->tregs = opts->tregs > 0 ? opts->tregs : DIF_DTR_NREGS;
	pcb->treedump = opts->treedump;
	pcb->lineno = 1;
	pcb->src = text;
	pcb->srclen = len;
	pcb->fromfile = fromfile;
	prog->uarg_base = opts->uarg_base != 0 ? opts->uarg_base : 1;

	(void)dt_compile_run(pcb);
	dt_lex_fini(pcb);
	dt_compile_treedump(pcb);
	/*
	 * DTrace writes its type containers as every compilation ends, failed
	 * or not, to the files open then: one this compilation's #pragma D
	 * option named too.
	 */
	int cfd = opts->ctypes_fdp != NULL ? *opts->ctypes_fdp : opts->ctypes_fd;
	int dfd = opts->dtypes_fdp != NULL ? *opts->dtypes_fdp : opts->dtypes_fd;
	if (pcb->intrinsic != NULL && cfd > 0)
		dt_ctf_write(pcb, cfd, false);
	if (pcb->intrinsic != NULL && dfd > 0)
		dt_ctf_write(pcb, dfd, true);
	if (prog->err.failed) {
		free(prog->dof);
		prog->dof = NULL;
		prog->dof_size = 0;
	}
	dt_arena_free(pcb);
	free(pcb);
	return prog;
}

dt_cprog_t *
dt_compile_string(const char *text, const dt_copts_t *opts)
{
	return dt_compile_text(text, strlen(text), opts, false);
}

dt_cprog_t *
dt_compile_file(FILE *fp, const dt_copts_t *opts)
{
	size_t cap = 65536, n = 0, r;
	char *buf = malloc(cap);
	dt_cprog_t *prog;

	if (buf == NULL)
		return NULL;
	while ((r = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
		n += r;
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (nb == NULL) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[n] = '\0';
	prog = dt_compile_text(buf, n, opts, true);
	free(buf);
	return prog;
}
