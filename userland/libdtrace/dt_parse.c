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
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_cg.h"
#include "dt_grammar.h"
#include "dt_parse.h"

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
	e->line = line > 0 ? line : pcb->lineno;
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

#define DT_ERRTAG_NAME(t) #t,
static const char *const dt_errtag_names[] = {DT_ERRTAG_LIST(DT_ERRTAG_NAME)};

const char *
dt_errtag_name(int tag)
{
	if (tag < 0 || tag >= D_NTAGS)
		return "D_UNKNOWN";
	return dt_errtag_names[tag];
}

/* ---- nodes ---------------------------------------------------------------- */

dt_node_t *
dt_node_new(dt_pcb_t *pcb, dt_nkind_t kind)
{
	dt_node_t *n = dt_zalloc(pcb, sizeof(*n));
	n->kind = kind;
	n->line = pcb->scanner != NULL ? dt_lex_lineno(pcb) : pcb->lineno;
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
	n->string = s;
	n->op = DT_TOK_IDENT;
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

dt_node_t *
dt_node_type(dt_pcb_t *pcb, dt_type_t *t)
{
	dt_node_t *n = dt_node_new(pcb, DT_NODE_TYPE);
	n->type = t;
	return n;
}

dt_node_t *
dt_node_copy_list(dt_pcb_t *pcb, const dt_node_t *n)
{
	dt_node_t *head = NULL, **pp = &head;

	for (; n != NULL; n = n->list) {
		dt_node_t *c = dt_zalloc(pcb, sizeof(*c));
		*c = *n;
		c->list = NULL;
		c->left = dt_node_copy_list(pcb, n->left);
		c->right = dt_node_copy_list(pcb, n->right);
		c->cond = dt_node_copy_list(pcb, n->cond);
		c->args = dt_node_copy_list(pcb, n->args);
		c->aggfun = dt_node_copy_list(pcb, n->aggfun);
		c->pred = dt_node_copy_list(pcb, n->pred);
		/* probe descriptions are matched once and shared */
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
 * Expand $N, $$N and $name in a probe description, with the same rules for
 * undefined arguments as in expressions.
 */
static char *
dt_pdesc_expand(dt_pcb_t *pcb, const char *s)
{
	size_t cap = strlen(s) + 256, n = 0;
	char *out = dt_zalloc(pcb, cap);
	while (*s != '\0') {
		const char *val = NULL;
		char buf[64];
		if (*s == '$') {
			const char *p = s + 1;
			bool dbl = false;
			if (*p == '$') {
				dbl = true;
				p++;
			}
			if (isdigit((unsigned char)*p)) {
				long i = strtol(p, NULL, 10);
				size_t len = strspn(p, "0123456789");
				if (i >= pcb->sargc && !(pcb->cflags & DT_C_DEFARG)) {
					char name[32];
					snprintf(name, sizeof(name), "%s%.*s", dbl ? "$$" : "$", (int)len, p);
					dt_error(pcb, 0, D_MACRO_UNDEF, "macro argument %s is not defined", name);
				}
				if (i < pcb->sargc) {
					val = pcb->sargv[i];
					pcb->sflagv[i] = 1;
				} else {
					val = dbl ? "" : "0";
				}
				s = p + len;
			} else if (isalpha((unsigned char)*p) || *p == '_') {
				size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
				const dt_cmacros_t *m = &pcb->opts->macros;
				int64_t v = 0;
				if (len == 3 && strncmp(p, "pid", 3) == 0)
					v = m->set ? m->pid : getpid();
				else if (len == 4 && strncmp(p, "ppid", 4) == 0)
					v = m->set ? m->ppid : getppid();
				else if (len == 6 && strncmp(p, "target", 6) == 0)
					v = m->set ? m->target : 0;
				else if (len == 3 && strncmp(p, "uid", 3) == 0)
					v = m->set ? m->uid : (int64_t)getuid();
				else if (len == 3 && strncmp(p, "gid", 3) == 0)
					v = m->set ? m->gid : (int64_t)getgid();
				else
					dt_error(pcb, 0, D_MACRO_UNDEF, "macro variable $%.*s is not defined",
						 (int)len, p);
				snprintf(buf, sizeof(buf), "%lld", (long long)v);
				val = buf;
				s = p + len;
			}
		}
		if (val == NULL) {
			if (n + 2 > cap)
				break;
			out[n++] = *s++;
			continue;
		}
		size_t vl = strlen(val);
		if (n + vl + 1 > cap) {
			char *o2 = dt_zalloc(pcb, cap * 2 + vl);
			memcpy(o2, out, n);
			out = o2;
			cap = cap * 2 + vl;
		}
		memcpy(out + n, val, vl);
		n += vl;
	}
	out[n] = '\0';
	return out;
}

/*
 * Split "a:b:c:d" into a probe description.  Fewer than four fields fill from
 * the right starting at the field pcb->opts->pspec names (the name field by
 * default), as DTrace's dtrace_xstr2desc() does.
 */
static void
dt_pdesc_parse(dt_pcb_t *pcb, const char *text, dtrace_probedesc_t *pd, int line)
{
	const char *f[4] = {"", "", "", ""};
	size_t lens[4] = {0, 0, 0, 0};
	int nf = 1, i;
	const char *p, *start = text;
	int spec = pcb->opts->pspec;

	/* a description that is a number names a probe by its id */
	if (text[0] != '\0' && strspn(text, "0123456789") == strlen(text)) {
		memset(pd, 0, sizeof(*pd));
		pd->dtpd_id = (dtrace_id_t)strtoul(text, NULL, 10);
		if (pd->dtpd_id != DTRACE_IDNONE)
			return;
	}
	for (p = text; *p; p++)
		if (*p == ':')
			nf++;
	if (nf > 4)
		dt_error(pcb, line, D_PDESC_INVAL, "invalid probe description \"%s\": too many ':' delimiters", text);
	/* only command-line descriptions (-P -m -f -n) name the field a lone word fills */
	if (!(pcb->cflags & DT_C_PSPEC) || spec < DTRACE_PROBESPEC_PROVIDER || spec > DTRACE_PROBESPEC_NAME || nf > 1)
		spec = DTRACE_PROBESPEC_NAME;
	/* the last field written lands in `spec', earlier ones to its left */
	int first = spec - (nf - 1);
	if (first < 0)
		first = 0;
	i = first;
	for (p = text;; p++) {
		if (*p == ':' || *p == '\0') {
			f[i] = start;
			lens[i] = (size_t)(p - start);
			i++;
			start = p + 1;
			if (*p == '\0')
				break;
		}
	}
	memset(pd, 0, sizeof(*pd));
	size_t max[4] = {DTRACE_PROVNAMELEN, DTRACE_MODNAMELEN, DTRACE_FUNCNAMELEN, DTRACE_NAMELEN};
	char *dst[4] = {pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func, pd->dtpd_name};
	for (i = 0; i < 4; i++) {
		if (lens[i] >= max[i])
			dt_error(pcb, line, D_PDESC_INVAL, "invalid probe description \"%s\": %s name too long",
				 text, i == 0 ? "provider" : i == 1 ? "module" : i == 2 ? "function" : "probe");
		memcpy(dst[i], f[i], lens[i]);
		dst[i][lens[i]] = '\0';
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
	const char *t = n->string;
	if (strchr(t, '$') != NULL)
		t = dt_pdesc_expand(pcb, t);
	dt_pdesc_parse(pcb, t, pd, n->line);
}

/* ---- clauses ----------------------------------------------------------- */

void
dt_clause_add(dt_pcb_t *pcb, dt_node_t *pdescs, dt_node_t *pred, dt_node_t *acts)
{
	dt_node_t *c = dt_node_new(pcb, DT_NODE_CLAUSE);
	c->pdescs = pdescs;
	c->pred = pred;
	c->args = acts;
	c->line = pdescs->line;
	if (pcb->lastclause == NULL)
		pcb->clauses = c;
	else
		pcb->lastclause->list = c;
	pcb->lastclause = c;
	/* declarations and clauses interleave: the back end walks this list */
	dt_node_t *d = dt_node_new(pcb, DT_NODE_PROG);
	d->left = c;
	pcb->root = dt_node_link(pcb->root, d);
}

/* ---- #pragma and control lines -------------------------------------------- */

static char *
dt_pragma_tok(char **sp)
{
	char *s = *sp, *t;
	while (*s != '\0' && isspace((unsigned char)*s))
		s++;
	if (*s == '\0') {
		*sp = s;
		return NULL;
	}
	if (*s == '"') {
		t = ++s;
		while (*s != '\0' && *s != '"')
			s++;
		if (*s == '"')
			*s++ = '\0';
		*sp = s;
		return t;
	}
	t = s;
	while (*s != '\0' && !isspace((unsigned char)*s))
		s++;
	if (*s != '\0')
		*s++ = '\0';
	*sp = s;
	return t;
}

static void
dt_pragma_option(dt_pcb_t *pcb, char *arg)
{
	char *name = arg, *val = strchr(arg, '=');
	dt_cprog_t *prog = pcb->prog;
	char errbuf[256] = "";

	if (val != NULL)
		*val++ = '\0';
	if (pcb->opts->ops.setopt != NULL &&
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
	else if (strcmp(name, "strsize") == 0 && val != NULL) {
		char *e;
		unsigned long long v = strtoull(val, &e, 0);
		if (*e == 'k' || *e == 'K')
			v <<= 10;
		else if (*e == 'm' || *e == 'M')
			v <<= 20;
		if (v > 0 && v < UINT32_MAX)
			pcb->strsize = (uint32_t)v;
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

void
dt_pragma(dt_pcb_t *pcb, char *line)
{
	char *s = strchr(line, '#') + 1, *tok, *kind;

	tok = dt_pragma_tok(&s);
	if (tok == NULL)
		return; /* a lone '#' is a null directive */
	if (isdigit((unsigned char)*tok) || strcmp(tok, "line") == 0) {
		/* cpp line marker: # N "file" or #line N "file" */
		if (!isdigit((unsigned char)*tok))
			tok = dt_pragma_tok(&s);
		if (tok == NULL || !isdigit((unsigned char)*tok))
			dt_error(pcb, 0, D_PRAGCTL_INVAL, "invalid control directive: #line");
		pcb->lineno = (int)strtol(tok, NULL, 10) - 1;
		if ((tok = dt_pragma_tok(&s)) != NULL) {
			/* cpp names the input "<stdin>": keep DTrace's plain "line N" */
			if (strcmp(tok, "<stdin>") != 0 && strcmp(tok, "<command-line>") != 0 &&
			    strcmp(tok, "<built-in>") != 0 && pcb->cppbuf != NULL &&
			    (pcb->opts->filename == NULL || strcmp(tok, pcb->opts->filename) != 0))
				pcb->filetag = dt_strdup(pcb, tok);
			else
				pcb->filetag = NULL;
		}
		return;
	}
	if (strcmp(tok, "ident") == 0)
		return;
	if (strcmp(tok, "error") == 0) {
		while (*s == ' ' || *s == '\t')
			s++;
		dt_error(pcb, 0, D_PRAGERR, "#error %s", s);
	}
	if (strcmp(tok, "pragma") != 0)
		dt_error(pcb, 0, D_PRAGCTL_INVAL, "invalid control directive: #%s", tok);

	kind = dt_pragma_tok(&s);
	if (kind == NULL || strcmp(kind, "D") != 0)
		return; /* pragmas for other compilers are ignored, as in C */
	tok = dt_pragma_tok(&s);
	if (tok == NULL)
		dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma D directive");
	if (strcmp(tok, "option") == 0) {
		char *arg;
		int n = 0;
		while ((arg = dt_pragma_tok(&s)) != NULL) {
			dt_pragma_option(pcb, arg);
			n++;
		}
		if (n == 0)
			dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma option");
	} else if (strcmp(tok, "attributes") == 0 || strcmp(tok, "binding") == 0 ||
	           strcmp(tok, "depends_on") == 0) {
		char *a = dt_pragma_tok(&s), *b = dt_pragma_tok(&s);
		if (a == NULL || b == NULL)
			dt_error(pcb, 0, D_PRAGMA_MALFORM, "malformed #pragma %s <%s> <%s>", tok,
				 strcmp(tok, "depends_on") == 0 ? "class" : strcmp(tok, "binding") == 0 ? "version" : "attributes",
				 strcmp(tok, "depends_on") == 0 ? "name" : "ident");
		if (strcmp(tok, "depends_on") == 0) {
			if (strcmp(a, "provider") != 0 && strcmp(a, "module") != 0 && strcmp(a, "library") != 0)
				dt_error(pcb, 0, D_PRAGMA_INVAL, "invalid class %s specified by #pragma %s", a, tok);
			if (strcmp(a, "provider") == 0 && pcb->opts->ops.probe_match != NULL) {
				dtrace_probedesc_t pd;
				memset(&pd, 0, sizeof(pd));
				snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s", b);
				if (pcb->opts->ops.probe_match(pcb->opts->ops.arg, &pd, NULL) <= 0)
					dt_error(pcb, 0, D_PRAGMA_DEPEND,
						 "program requires provider %s", b);
			}
		}
	} else {
		dt_error(pcb, 0, D_PRAGMA_INVAL, "invalid control directive: #pragma %s", tok);
	}
}

/* ---- the C preprocessor (-C) ------------------------------------------------- */

static char *
dt_run_cpp(dt_pcb_t *pcb, const char *text, size_t len, size_t *outlen)
{
	int in[2], out[2];
	pid_t pid;
	const dt_copts_t *o = pcb->opts;
	const char *cpp = o->cpp != NULL ? o->cpp : "cpp";
	char **argv = calloc((size_t)o->cpp_argc + 8, sizeof(char *));
	int argc = 0, status;
	size_t cap = len * 2 + 4096, n = 0;
	char *buf;

	if (argv == NULL || pipe(in) != 0 || pipe(out) != 0)
		dt_error(pcb, 0, D_CPP, "failed to run preprocessor: %s", strerror(errno));
	argv[argc++] = (char *)cpp;
	argv[argc++] = "-undef";
	argv[argc++] = "-D__SUNW_D=1";
	argv[argc++] = "-D__SUNW_D_VERSION=0x01010000";
	for (int i = 0; i < o->cpp_argc; i++)
		argv[argc++] = o->cpp_argv[i];
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		dt_error(pcb, 0, D_CPP, "failed to run preprocessor: %s", strerror(errno));
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
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
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(buf);
		dt_error(pcb, 0, D_CPP, "preprocessor failed with exit status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
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

	if (pcb->clauses == NULL && !(pcb->cflags & DT_C_EMPTY) && pcb->root == NULL)
		dt_error(pcb, 0, D_EMPTY, "empty D program translation unit");

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
	pcb->strsize = opts->strsize != 0 ? opts->strsize : DTRACE_STRSIZE_DEFAULT;
	pcb->lineno = 1;
	pcb->src = text;
	pcb->srclen = len;
	pcb->fromfile = fromfile;
	prog->uarg_base = opts->uarg_base != 0 ? opts->uarg_base : 1;

	(void)dt_compile_run(pcb);
	dt_lex_fini(pcb);
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
