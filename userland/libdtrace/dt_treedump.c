/*
 * dt_treedump.c: -x tree=N, the parse tree dumped to stderr between the
 * passes of a compilation, as DTrace's dt_compile() dumps it.
 *
 * DTrace checks DT_TREEDUMP_PASS(dtp, p), bit p-1 of -x tree, at four
 * points of dt_compile() (dt_cc.c):
 *
 *   1 (tree=1)  after parsing, the whole program (dt_node_printr);
 *   2 (tree=2)  each clause once typed ("cooked"), once per probe
 *               description it names, as dt_compile_one_clause() cooks it;
 *   3 (tree=4)  when the compilation ends, failed or not, the whole
 *               program again, its clauses as if/else made them and as
 *               they were last cooked;
 *   4 (tree=8)  each clause, after if/else became plain clauses and
 *               before it is cooked, printed back as D (dt_printd).
 *
 * dt_node_printr() writes one line per node, indented two blanks per
 * level: the node's kind and what it holds, then "(type=<T> attr=[n/d/c]
 * flags=F)" -- the CTF name of its type or <-1> before it has one, its
 * stability as DTrace's dt_attr_str() letters, and its flags (SIGN, COOK,
 * REF, LVAL, WRITE, BITF, USER, or 0).  The program is a PROGRAM node over
 * its clauses, inlines, translators and providers (declarations of
 * variables and types leave no node); a clause is CLAUSE, its PDESCs, its
 * probe context's CTXATTR, an optional PREDICATE and its statements, each a
 * "D EXPRESSION".  dt_printd() writes a clause as D: descriptions, /pred/,
 * and its statements in braces, every operation parenthesized.
 *
 * This compiler's tree is not DTrace's node for node; it is printed as
 * DTrace's would be:
 *
 *   - the program is a chain of DT_NODE_PROG links (dt_prog_add), printed
 *     as one PROGRAM node; a statement (DT_NODE_EXPSTMT) is DTrace's DEXPR
 *     or DFUNC, both "D EXPRESSION"; a provider is a DT_NODE_DECL;
 *   - DTrace's parser folds constants this compiler folds as it cooks
 *     them: pass 1 and pass 4 print such a subtree as the constant its
 *     cooked copy is, and an inline of a constant (->inl on the name) as
 *     that constant;
 *   - clauses are typed as copies (dt_compile_one), each kept on its
 *     (sub-)clause for pass 3; a use of an inline is expanded where DTrace
 *     keeps a variable node, so it is printed as that variable (->inl,
 *     ->inlargs);
 *   - DTrace's types give flags this compiler's do not (void and its
 *     typedefs are signed integers in CTF, the dynamic type <DYN> is a
 *     reference, an enum is not signed, every variable is an l-value, an
 *     assignment has its variable's flags): the flags printed are DTrace's;
 *   - a node DTrace's dt_printd() cannot print (the type of a cast or of
 *     xlate) is "/ * bad node ADDRESS, kind K * /" there too, its address
 *     this process's and K DTrace's number for the kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_grammar.h"
#include "dt_parse.h"

/* DTrace's dt_node_t kinds (dt_parser.h), which its "bad node" lines number */
enum {
	DTK_INT = 1, DTK_STRING, DTK_IDENT, DTK_VAR, DTK_SYM, DTK_TYPE, DTK_FUNC, DTK_OP1, DTK_OP2,
	DTK_OP3, DTK_DEXPR, DTK_DFUNC, DTK_AGG, DTK_PDESC, DTK_CLAUSE, DTK_INLINE, DTK_MEMBER,
	DTK_XLATOR, DTK_PROBE, DTK_PROVIDER, DTK_PROG, DTK_IF
};

static int
dt_td_kind(const dt_node_t *n)
{
	switch (n->kind) {
	case DT_NODE_INT: return DTK_INT;
	case DT_NODE_STRING: return DTK_STRING;
	case DT_NODE_IDENT: return DTK_IDENT;
	case DT_NODE_VAR: return DTK_VAR;
	case DT_NODE_FUNC: return DTK_FUNC;
	case DT_NODE_OP1: return DTK_OP1;
	case DT_NODE_OP2: return DTK_OP2;
	case DT_NODE_OP3: return DTK_OP3;
	case DT_NODE_AGG: return DTK_AGG;
	case DT_NODE_TYPE: return DTK_TYPE;
	case DT_NODE_MEMBER: return DTK_MEMBER;
	case DT_NODE_XLATOR: return DTK_XLATOR;
	case DT_NODE_INLINE: return DTK_INLINE;
	case DT_NODE_CLAUSE: return DTK_CLAUSE;
	case DT_NODE_PDESC: return DTK_PDESC;
	case DT_NODE_IF: return DTK_IF;
	case DT_NODE_PROG: return DTK_PROG;
	case DT_NODE_EXPSTMT: return dt_node_is_actfunc(n->left) ? DTK_DFUNC : DTK_DEXPR;
	default: return 0;
	}
}

/* DTrace's dt_attr_str(): "[n/d/c]", a letter for each stability and the class */
static const char *
dt_td_attr(dtrace_attribute_t a, char *buf, size_t len)
{
	static const char stab[] = "ipoxuesS";
	static const char cls[] = "uCpgIc";

	if (a.dtat_name < sizeof(stab) - 1 && a.dtat_data < sizeof(stab) - 1 && a.dtat_class < sizeof(cls) - 1)
		snprintf(buf, len, "[%c/%c/%c]", stab[a.dtat_name], stab[a.dtat_data], cls[a.dtat_class]);
	else
		snprintf(buf, len, "[%u/%u/%u]", a.dtat_name, a.dtat_data, a.dtat_class);
	return buf;
}

/* The CTF name DTrace's type has (its dynamic type is the typedef <DYN>). */
static const char *
dt_td_typename(const dt_type_t *t, char *buf, size_t len)
{
	if (t != NULL && t->kind == DT_TK_DYN)
		snprintf(buf, len, "<DYN>");
	else
		dt_type_name(t, buf, len);
	return buf;
}

/*
 * The bits of DTrace's dt_node_type_assign() for type t: SIGN for a signed
 * CTF integer (void, and its typedefs stack, _symaddr and <DYN>, are one),
 * REF for what is held by reference (structs, unions, forward tags, arrays,
 * strings, functions, <DYN>).
 */
static uint32_t
dt_td_typeflags(dt_type_t *t)
{
	dt_type_t *r;

	if (t == NULL)
		return 0;
	if (t->kind == DT_TK_DYN)
		return DT_NF_SIGNED | DT_NF_REF;
	if ((r = dt_type_resolve(t)) == NULL)
		return 0;
	switch (r->kind) {
	case DT_TK_VOID: return DT_NF_SIGNED;
	case DT_TK_INT: return r->issigned ? DT_NF_SIGNED : 0;
	case DT_TK_FLOAT: return r->size > 8 ? DT_NF_REF : 0;
	case DT_TK_DYN: return DT_NF_SIGNED | DT_NF_REF;
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_FWD:
	case DT_TK_ARRAY:
	case DT_TK_FUNC:
	case DT_TK_STRING: return DT_NF_REF;
	default: return 0;
	}
}

/* "type=<T> attr=[.] flags=F", the part of a line dt_node_printr() puts in parentheses */
static const char *
dt_td_info(dt_type_t *t, dtrace_attribute_t attr, uint32_t flags, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{DT_NF_SIGNED, "SIGN"}, {DT_NF_COOKED, "COOK"}, {DT_NF_REF, "REF"}, {DT_NF_LVALUE, "LVAL"},
		{DT_NF_WRITABLE, "WRITE"}, {DT_NF_BITFIELD, "BITF"}, {DT_NF_USERLAND, "USER"},
	};
	char tn[512], a[16];
	size_t off;

	if (t != NULL)
		off = (size_t)snprintf(buf, len, "type=<%s> attr=%s flags=", dt_td_typename(t, tn, sizeof(tn)),
				       dt_td_attr(attr, a, sizeof(a)));
	else
		off = (size_t)snprintf(buf, len, "type=<-1> attr=%s flags=", dt_td_attr(attr, a, sizeof(a)));
	if (flags == 0) {
		snprintf(buf + off, len - off, "0");
		return buf;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && off < len; i++) {
		if (flags & names[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off > 0 && buf[off - 1] != '=' ? "," : "",
						names[i].name);
	}
	return buf;
}

/*
 * A node's own line: its flags are this compiler's but for the bits its
 * type gives differently in DTrace (a void or <DYN> value is signed, <DYN>,
 * a forward tag or a function is a reference, an enum is not signed).
 */
static uint32_t
dt_td_node_flags(const dt_node_t *n)
{
	uint32_t flags = n->flags;
	dt_type_t *r = dt_type_resolve(n->type);

	/* DTrace's dt_xcook_ident() makes every variable an l-value, parameters too */
	if (n->kind == DT_NODE_VAR)
		flags |= DT_NF_LVALUE;

	/*
	 * DTrace gives an assignment, ++ and -- the flags of the variable
	 * they write but its l-value bit (dt_node_type_propagate).
	 */
	if ((n->flags & DT_NF_COOKED) && n->left != NULL && n->inl == NULL &&
	    ((n->kind == DT_NODE_OP2 && n->op >= DT_TOK_ASGN && n->op <= DT_TOK_RSH_EQ) ||
	     (n->kind == DT_NODE_OP1 && n->op >= DT_TOK_PREINC && n->op <= DT_TOK_POSTDEC)))
		return (dt_td_node_flags(n->left) & ~(uint32_t)DT_NF_LVALUE) | DT_NF_COOKED;

	if (n->type != NULL && n->type->kind == DT_TK_DYN)
		flags |= DT_NF_SIGNED | DT_NF_REF;
	else if (r != NULL && r->kind == DT_TK_VOID)
		flags |= DT_NF_SIGNED;
	else if (r != NULL && r->kind == DT_TK_ENUM)
		flags &= ~(uint32_t)DT_NF_SIGNED;
	else if (r != NULL && (r->kind == DT_TK_FWD || r->kind == DT_TK_FUNC))
		flags |= DT_NF_REF;
	return flags;
}

static const char *
dt_td_node_info(dt_pcb_t *pcb, const dt_node_t *n, char *buf, size_t len)
{
	/* DTrace's xlate<T>(e) is of the dynamic type, a translated struct or a pointer to one */
	if (n->kind == DT_NODE_OP2 && n->op == DT_TOK_XLATE && (n->flags & DT_NF_COOKED))
		return dt_td_info(pcb->t_dyn, n->attr,
				  (n->flags & ~(uint32_t)DT_NF_REF) | DT_NF_SIGNED | DT_NF_REF, buf, len);
	return dt_td_info(n->type, n->attr, dt_td_node_flags(n), buf, len);
}

/* ---- probe descriptions ------------------------------------------------- */

/* A description written as a number is a probe id (DTrace's dt_node_pdesc_by_id). */
static bool
dt_td_pdesc_id(const dt_node_t *pn, unsigned long long *idp)
{
	const char *s = pn->string;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	*idp = strtoull(s, &end, 10);
	return *end == '\0';
}

static void
dt_td_pdesc(dt_pcb_t *pcb, const dt_node_t *pn, dtrace_probedesc_t *pd)
{
	unsigned long long id;

	memset(pd, 0, sizeof(*pd));
	if (dt_td_pdesc_id(pn, &id))
		pd->dtpd_id = (dtrace_id_t)id;
	else
		dt_pdesc_resolve(pcb, (dt_node_t *)pn, pd);
}

/* ---- constants DTrace's parser folds ------------------------------------- */

/*
 * DTrace's dt_node_op1() and dt_node_op2() fold integer constants as they
 * build the tree: -, +, ~ and ! of a constant, sizeof of a type or a
 * string, offsetof (dt_node_offsetof), an arithmetic, bitwise, logical or relational operator between
 * two constants, a cast of a constant to an integer type; an inline of an
 * integer constant is that constant (dt_node_ident).  This compiler folds
 * the same operations as it cooks them: an unparsed subtree DTrace would
 * have folded is printed as the constant its cooked copy is.
 */
static bool
dt_td_foldable(const dt_node_t *n)
{
	if (n == NULL || (n->flags & DT_NF_COOKED) || n->inl != NULL)
		return n != NULL && (n->kind == DT_NODE_INT || (n->kind == DT_NODE_IDENT && n->inl != NULL));
	switch (n->kind) {
	case DT_NODE_OP1:
		switch (n->op) {
		case DT_TOK_INEG:
		case DT_TOK_IPOS:
		case DT_TOK_BNEG:
		case DT_TOK_LNEG:
			return dt_td_foldable(n->left);
		case DT_TOK_SIZEOF:
			return n->left->kind == DT_NODE_TYPE || n->left->kind == DT_NODE_STRING;
		default:
			return false;
		}
	case DT_NODE_OP2:
		switch (n->op) {
		case DT_TOK_LOR: case DT_TOK_LXOR: case DT_TOK_LAND: case DT_TOK_BOR: case DT_TOK_XOR:
		case DT_TOK_BAND: case DT_TOK_EQU: case DT_TOK_NEQ: case DT_TOK_LT: case DT_TOK_LE:
		case DT_TOK_GT: case DT_TOK_GE: case DT_TOK_LSH: case DT_TOK_RSH: case DT_TOK_ADD:
		case DT_TOK_SUB: case DT_TOK_MUL: case DT_TOK_DIV: case DT_TOK_MOD:
			return dt_td_foldable(n->left) && dt_td_foldable(n->right);
		case DT_TOK_LPAR:
			return n->left->kind == DT_NODE_TYPE && dt_type_is_integer(n->left->type) &&
			       dt_td_foldable(n->right);
		case DT_TOK_OFFSETOF:
			return true;
		default:
			return false;
		}
	default:
		return false;
	}
}

static const dt_node_t *
dt_td_fold(dt_pcb_t *pcb, const dt_node_t *n)
{
	dt_node_t *c;

	if (n->kind == DT_NODE_INT || (n->kind != DT_NODE_OP1 && n->kind != DT_NODE_OP2) ||
	    (n->flags & DT_NF_COOKED) || !dt_td_foldable(n))
		return n;
	c = dt_node_copy_list(pcb, n);
	c = dt_cook(pcb, c, DT_IDFLG_REF);
	if (c->kind != DT_NODE_INT)
		return n;
	/* DTrace's dt_node_offsetof() is dt_node_int()'s constant: an int */
	if (n->kind == DT_NODE_OP2 && n->op == DT_TOK_OFFSETOF)
		c = dt_node_int(pcb, c->value);
	return c;
}

/*
 * Fold every subtree DTrace's parser would have folded before a line is
 * printed: an error there (offsetof of no struct, sizeof of void) is the
 * parser's in DTrace, which then prints no tree at all.
 */
static void
dt_td_prefold(dt_pcb_t *pcb, const dt_node_t *n)
{
	for (; n != NULL; n = n->list) {
		if ((n->kind == DT_NODE_OP1 || n->kind == DT_NODE_OP2) && !(n->flags & DT_NF_COOKED) &&
		    dt_td_foldable(n)) {
			(void)dt_td_fold(pcb, n);
			continue;
		}
		if (n->kind == DT_NODE_INLINE || n->kind == DT_NODE_XLATOR || n->kind == DT_NODE_DECL ||
		    n->kind == DT_NODE_TYPE || n->kind == DT_NODE_PDESC)
			continue;
		/* operands, an if's statements, a call's arguments, a subscript's keys */
		dt_td_prefold(pcb, n->left);
		dt_td_prefold(pcb, n->right);
		dt_td_prefold(pcb, n->cond);
		dt_td_prefold(pcb, n->args);
	}
}

/* ---- dt_node_printr ------------------------------------------------------ */

static void dt_td_printr(dt_pcb_t *pcb, FILE *fp, const dt_node_t *n, int depth);

/* a list of arguments or keys, "," between them */
static void
dt_td_printr_args(dt_pcb_t *pcb, FILE *fp, const dt_node_t *args, int depth)
{
	for (const dt_node_t *a = args; a != NULL; a = a->list) {
		dt_td_printr(pcb, fp, a, depth + 1);
		if (a->list != NULL)
			fprintf(fp, "%*s,\n", depth * 2, "");
	}
}

static const char *
dt_td_varprefix(const dt_ident_t *idp)
{
	return (idp->flags & DT_IDFLG_LOCAL) ? "this->" : (idp->flags & DT_IDFLG_TLS) ? "self->" : "";
}

static void
dt_td_printr_clause(dt_pcb_t *pcb, FILE *fp, const dt_node_t *c, const dt_node_t *pdescs, int depth)
{
	char a[16];

	fprintf(fp, "CLAUSE attr=%s\n", dt_td_attr(c->attr, a, sizeof(a)));
	for (const dt_node_t *pn = pdescs; pn != NULL; pn = pn->list)
		dt_td_printr(pcb, fp, pn, depth + 1);
	fprintf(fp, "%*sCTXATTR %s\n", depth * 2, "", dt_td_attr(c->ctxattr, a, sizeof(a)));
	if (c->pred != NULL) {
		fprintf(fp, "%*sPREDICATE /\n", depth * 2, "");
		dt_td_printr(pcb, fp, c->pred, depth + 1);
		fprintf(fp, "%*s/\n", depth * 2, "");
	}
	for (const dt_node_t *s = c->args; s != NULL; s = s->list)
		dt_td_printr(pcb, fp, s, depth + 1);
	fprintf(fp, "\n");
}

static void
dt_td_printr(dt_pcb_t *pcb, FILE *fp, const dt_node_t *n, int depth)
{
	char buf[1024], a[16], tn[512];

	fprintf(fp, "%*s", depth * 2, "");
	n = dt_td_fold(pcb, n);
	dt_td_attr(n->attr, a, sizeof(a));

	if (n->inl != NULL && n->kind == DT_NODE_IDENT) {
		/* an inline of an integer constant, that constant to DTrace's parser */
		const dt_node_t *e = n->inl->inline_expr;
		fprintf(fp, "INT 0x%llx (%s)\n", (unsigned long long)e->value,
			dt_td_info(e->type, n->attr, (e->flags & ~(uint32_t)DT_NF_LVALUE) | DT_NF_COOKED, buf,
				   sizeof(buf)));
		return;
	}
	if (n->inl != NULL && n->inl->inline_expr->kind != DT_NODE_INT) {
		/* a use of an inline, expanded here: DTrace's variable node naming it */
		dt_ident_t *idp = n->inl;
		fprintf(fp, "VARIABLE %s (%s)\n", idp->name,
			dt_td_info(idp->type, n->attr,
				   dt_td_typeflags(idp->type) | DT_NF_COOKED | DT_NF_LVALUE |
				       ((idp->flags & DT_IDFLG_WRITE) ? DT_NF_WRITABLE : 0),
				   buf, sizeof(buf)));
		if (n->inlargs != NULL) {
			fprintf(fp, "%*s[\n", depth * 2, "");
			dt_td_printr_args(pcb, fp, n->inlargs, depth);
			fprintf(fp, "%*s]\n", depth * 2, "");
		}
		return;
	}

	if (n->sym != NULL) {
		/* a module's symbol, read at its address here: DTrace's dt_xcook_ident() makes an l-value */
		fprintf(fp, "SYMBOL %s (%s)\n", n->sym,
			dt_td_info(n->type, n->attr,
				   dt_td_typeflags(n->type) | DT_NF_COOKED | DT_NF_LVALUE | (n->flags & DT_NF_USERLAND),
				   buf, sizeof(buf)));
		return;
	}

	switch (n->kind) {
	case DT_NODE_INT:
		fprintf(fp, "INT 0x%llx (%s)\n", (unsigned long long)n->value, dt_td_node_info(pcb, n, buf, sizeof(buf)));
		break;
	case DT_NODE_STRING:
		fprintf(fp, "STRING \"%s\" (%s)\n", n->string, dt_td_node_info(pcb, n, buf, sizeof(buf)));
		break;
	case DT_NODE_IDENT:
		fprintf(fp, "IDENT %s%s (%s)\n", n->op == DT_TOK_AGG ? "@" : "", n->string,
			dt_td_node_info(pcb, n, buf, sizeof(buf)));
		break;
	case DT_NODE_VAR:
		fprintf(fp, "VARIABLE %s%s (%s)\n", dt_td_varprefix(n->ident), n->ident->name,
			dt_td_node_info(pcb, n, buf, sizeof(buf)));
		if (n->args != NULL) {
			fprintf(fp, "%*s[\n", depth * 2, "");
			dt_td_printr_args(pcb, fp, n->args, depth);
			fprintf(fp, "%*s]\n", depth * 2, "");
		}
		break;
	case DT_NODE_TYPE:
		/* DTrace's dt_node_type() gives the node its type's flags as it makes it (userland: USER) */
		fprintf(fp, "TYPE (%s)\n",
			dt_td_info(n->type, n->attr, dt_td_typeflags(n->type) | DT_NF_COOKED | (n->flags & DT_NF_USERLAND),
				   buf, sizeof(buf)));
		break;
	case DT_NODE_FUNC:
		fprintf(fp, "FUNC %s (%s)\n", n->ident != NULL ? n->ident->name : n->left->string,
			dt_td_node_info(pcb, n, buf, sizeof(buf)));
		dt_td_printr_args(pcb, fp, n->args, depth);
		break;
	case DT_NODE_OP1:
		fprintf(fp, "OP1 %s (%s)\n", dt_opstr(n->op), dt_td_node_info(pcb, n, buf, sizeof(buf)));
		dt_td_printr(pcb, fp, n->left, depth + 1);
		break;
	case DT_NODE_OP2:
		fprintf(fp, "OP2 %s (%s)\n", dt_opstr(n->op), dt_td_node_info(pcb, n, buf, sizeof(buf)));
		dt_td_printr(pcb, fp, n->left, depth + 1);
		dt_td_printr(pcb, fp, n->right, depth + 1);
		/* a subscript's other keys, without commas */
		if (n->op == DT_TOK_LBRAC) {
			for (const dt_node_t *k = n->right->list; k != NULL; k = k->list)
				dt_td_printr(pcb, fp, k, depth + 1);
		}
		break;
	case DT_NODE_OP3:
		fprintf(fp, "OP3 (%s)\n", dt_td_node_info(pcb, n, buf, sizeof(buf)));
		dt_td_printr(pcb, fp, n->cond, depth + 1);
		fprintf(fp, "%*s?\n", depth * 2, "");
		dt_td_printr(pcb, fp, n->left, depth + 1);
		fprintf(fp, "%*s:\n", depth * 2, "");
		dt_td_printr(pcb, fp, n->right, depth + 1);
		break;
	case DT_NODE_EXPSTMT:
		fprintf(fp, "D EXPRESSION attr=%s\n", a);
		dt_td_printr(pcb, fp, n->left, depth + 1);
		break;
	case DT_NODE_AGG:
		fprintf(fp, "AGGREGATE @%s attr=%s [\n", n->ident->name, a);
		dt_td_printr_args(pcb, fp, n->args, depth);
		if (n->aggfun != NULL) {
			fprintf(fp, "%*s] = ", depth * 2, "");
			dt_td_printr(pcb, fp, n->aggfun, depth + 1);
			fprintf(fp, "%*s)\n", depth * 2, "");
		} else {
			fprintf(fp, "%*s]\n", depth * 2, "");
		}
		break;
	case DT_NODE_PDESC: {
		dtrace_probedesc_t pd;
		dt_td_pdesc(pcb, n, &pd);
		fprintf(fp, "PDESC %s:%s:%s:%s [%u]\n", pd.dtpd_provider, pd.dtpd_mod, pd.dtpd_func, pd.dtpd_name, (unsigned)pd.dtpd_id);
		break;
	}
	case DT_NODE_CLAUSE:
		dt_td_printr_clause(pcb, fp, n, n->pdescs, depth);
		break;
	case DT_NODE_INLINE:
		fprintf(fp, "INLINE %s (%s)\n", n->ident->name,
			dt_td_info(n->ident->type, n->attr, dt_td_typeflags(n->ident->type) | DT_NF_COOKED, buf,
				   sizeof(buf)));
		dt_td_printr(pcb, fp, n->ident->inline_expr, depth + 1);
		break;
	case DT_NODE_MEMBER:
		fprintf(fp, "MEMBER %s (%s)\n", n->string,
			dt_td_info(n->type, n->attr, dt_td_typeflags(n->type) | DT_NF_COOKED, buf, sizeof(buf)));
		if (n->left != NULL)
			dt_td_printr(pcb, fp, n->left, depth + 1);
		break;
	case DT_NODE_XLATOR: {
		dt_ident_t *xl = n->ident;
		fprintf(fp, "XLATOR (%s)", dt_td_info(pcb->t_dyn, n->attr, dt_td_typeflags(pcb->t_dyn) | DT_NF_COOKED,
						      buf, sizeof(buf)));
		fprintf(fp, " from <%s>", dt_td_typename(xl->keys[0], tn, sizeof(tn)));
		fprintf(fp, " to <%s>\n", dt_td_typename(xl->type, tn, sizeof(tn)));
		for (const dt_node_t *m = xl->inline_expr; m != NULL; m = m->list)
			dt_td_printr(pcb, fp, m, depth + 1);
		break;
	}
	case DT_NODE_DECL:
		/* a provider: its name, whether it was known, its probes (dt_decl_provider) */
		fprintf(fp, "PROVIDER %s (%s)\n", n->string, n->value != 0 ? "redecl" : "decl");
		for (const dt_node_t *p = n->args; p != NULL; p = p->list) {
			fprintf(fp, "%*sPROBE ::", (depth + 1) * 2, "");
			for (const char *s = p->string; *s != '\0'; s++) {
				if (s[0] == '_' && s[1] == '_') {
					fputc('-', fp);
					s++;
				} else {
					fputc(*s, fp);
				}
			}
			fputc('\n', fp);
		}
		break;
	case DT_NODE_PROG:
		fprintf(fp, "PROGRAM attr=%s\n", a);
		for (const dt_node_t *p = n; p != NULL; p = p->list)
			dt_td_printr(pcb, fp, p->left, depth + 1);
		break;
	case DT_NODE_IF:
		fprintf(fp, "IF attr=%s CONDITION:\n", a);
		dt_td_printr(pcb, fp, n->cond, depth + 1);
		fprintf(fp, "%*sIF BODY: \n", depth * 2, "");
		for (const dt_node_t *s = n->left; s != NULL; s = s->list)
			dt_td_printr(pcb, fp, s, depth + 1);
		if (n->right != NULL) {
			fprintf(fp, "%*sIF ELSE: \n", depth * 2, "");
			for (const dt_node_t *s = n->right; s != NULL; s = s->list)
				dt_td_printr(pcb, fp, s, depth + 1);
		}
		break;
	default:
		fprintf(fp, "<bad node %p, kind %d>\n", (const void *)n, dt_td_kind(n));
	}
}

/* ---- dt_printd ----------------------------------------------------------- */

static void dt_td_printd(dt_pcb_t *pcb, FILE *fp, const dt_node_t *n, int depth);

/* a subscript or argument list: "a, b, c" */
static void
dt_td_printd_list(dt_pcb_t *pcb, FILE *fp, const dt_node_t *k)
{
	for (; k != NULL; k = k->list) {
		dt_td_printd(pcb, fp, k, 0);
		if (k->list != NULL)
			fputs(", ", fp);
	}
}

static void
dt_td_printd(dt_pcb_t *pcb, FILE *fp, const dt_node_t *n, int depth)
{
	if (n->kind == DT_NODE_IDENT && n->inl != NULL) {
		fprintf(fp, "0x%llx%s", (unsigned long long)n->inl->inline_expr->value,
			(n->inl->inline_expr->flags & DT_NF_SIGNED) ? "" : "u");
		return;
	}
	n = dt_td_fold(pcb, n);
	switch (n->kind) {
	case DT_NODE_INT:
		fprintf(fp, "0x%llx%s", (unsigned long long)n->value, (n->flags & DT_NF_SIGNED) ? "" : "u");
		break;
	case DT_NODE_STRING: {
		char *e = dt_strchr2esc(n->string, strlen(n->string));
		fprintf(fp, "\"%s\"", e != NULL ? e : n->string);
		free(e);
		break;
	}
	case DT_NODE_IDENT:
		fprintf(fp, "%s%s", n->op == DT_TOK_AGG ? "@" : "", n->string);
		break;
	case DT_NODE_VAR:
		fprintf(fp, "%s%s", dt_td_varprefix(n->ident), n->ident->name);
		if (n->args != NULL) {
			fputc('[', fp);
			dt_td_printd_list(pcb, fp, n->args);
			fputc(']', fp);
		}
		break;
	case DT_NODE_FUNC:
		fprintf(fp, "%s(", n->ident != NULL ? n->ident->name : n->left->string);
		dt_td_printd_list(pcb, fp, n->args);
		fputc(')', fp);
		break;
	case DT_NODE_OP1:
		fprintf(fp, "%s(", dt_opstr(n->op));
		dt_td_printd(pcb, fp, n->left, 0);
		fputc(')', fp);
		break;
	case DT_NODE_OP2:
		fputc('(', fp);
		dt_td_printd(pcb, fp, n->left, 0);
		if (n->op == DT_TOK_LPAR) {
			/* a cast: DTrace closes its parenthesis here and no other */
			fputc(')', fp);
			dt_td_printd(pcb, fp, n->right, 0);
			break;
		}
		if (n->op == DT_TOK_PTR || n->op == DT_TOK_DOT || n->op == DT_TOK_LBRAC)
			fputs(dt_opstr(n->op), fp);
		else
			fprintf(fp, " %s ", dt_opstr(n->op));
		dt_td_printd(pcb, fp, n->right, 0);
		if (n->op == DT_TOK_LBRAC) {
			for (const dt_node_t *k = n->right->list; k != NULL; k = k->list) {
				fputs(", ", fp);
				dt_td_printd(pcb, fp, k, depth);
			}
			fputc(']', fp);
		}
		fputc(')', fp);
		break;
	case DT_NODE_OP3:
		fputc('(', fp);
		dt_td_printd(pcb, fp, n->cond, 0);
		fputs(" ? ", fp);
		dt_td_printd(pcb, fp, n->left, 0);
		fputs(" : ", fp);
		dt_td_printd(pcb, fp, n->right, 0);
		fputc(')', fp);
		break;
	case DT_NODE_EXPSTMT:
		fprintf(fp, "%*s", depth * 8, "");
		dt_td_printd(pcb, fp, n->left, depth + 1);
		fputs(";\n", fp);
		break;
	case DT_NODE_PDESC: {
		dtrace_probedesc_t pd;
		dt_td_pdesc(pcb, n, &pd);
		fprintf(fp, "%s:%s:%s:%s", pd.dtpd_provider, pd.dtpd_mod, pd.dtpd_func, pd.dtpd_name);
		break;
	}
	case DT_NODE_CLAUSE:
		for (const dt_node_t *pn = n->pdescs; pn != NULL; pn = pn->list) {
			dt_td_printd(pcb, fp, pn, 0);
			if (pn->list != NULL)
				fputc(',', fp);
			fputc('\n', fp);
		}
		if (n->pred != NULL) {
			fputc('/', fp);
			dt_td_printd(pcb, fp, n->pred, 0);
			fputs("/\n", fp);
		}
		fputs("{\n", fp);
		for (const dt_node_t *s = n->args; s != NULL; s = s->list)
			dt_td_printd(pcb, fp, s, depth + 1);
		fputs("}\n\n", fp);
		break;
	case DT_NODE_IF:
		fprintf(fp, "%*sif (", depth * 8, "");
		dt_td_printd(pcb, fp, n->cond, 0);
		fputs(") {\n", fp);
		for (const dt_node_t *s = n->left; s != NULL; s = s->list)
			dt_td_printd(pcb, fp, s, depth + 1);
		if (n->right == NULL) {
			fprintf(fp, "%*s}\n", depth * 8, "");
		} else {
			fprintf(fp, "%*s} else {\n", depth * 8, "");
			for (const dt_node_t *s = n->right; s != NULL; s = s->list)
				dt_td_printd(pcb, fp, s, depth + 1);
			fprintf(fp, "%*s}\n", depth * 8, "");
		}
		break;
	default:
		fprintf(fp, "/* bad node %p, kind %d */\n", (const void *)n, dt_td_kind(n));
	}
}

/* ---- the passes ---------------------------------------------------------- */

bool
dt_treedump_pass(const dt_pcb_t *pcb, int pass)
{
	return (pcb->treedump & (1 << (pass - 1))) != 0;
}

/*
 * The program is parsed: the errors of its probe descriptions and of the
 * constants DTrace's parser folds are the parser's in DTrace, raised before
 * any tree is printed.  Checked here when a pass that prints the program
 * or a clause as parsed (1, 3, 4) is asked for; this compiler otherwise
 * finds them as it cooks.
 */
void
dt_treedump_parsed(dt_pcb_t *pcb)
{
	if (!dt_treedump_pass(pcb, 1) && !dt_treedump_pass(pcb, 3) && !dt_treedump_pass(pcb, 4))
		return;
	for (dt_node_t *c = pcb->clauses; c != NULL; c = c->list) {
		for (dt_node_t *pn = c->pdescs; pn != NULL; pn = pn->list) {
			dtrace_probedesc_t pd;
			dt_td_pdesc(pcb, pn, &pd);
		}
		dt_td_prefold(pcb, c->pred);
		dt_td_prefold(pcb, c->args);
	}
}

/*
 * Passes 1 and 3: the program.  Pass 1 prints the clauses as parsed; pass 3
 * those if/else made of each (dt_compile_program), each as last cooked.
 */
void
dt_treedump_program(dt_pcb_t *pcb, int pass)
{
	char a[16];

	if (!dt_treedump_pass(pcb, pass))
		return;
	dt_treedump_parsed(pcb);
	fprintf(stderr, "PROGRAM attr=%s\n", dt_td_attr(dt_attr_def, a, sizeof(a)));
	for (dt_node_t *p = pcb->root; p != NULL; p = p->list) {
		dt_node_t *n = p->left;
		if (pass == 3 && n->kind == DT_NODE_CLAUSE && n->subs != NULL) {
			for (dt_node_t *s = n->subs; s != NULL; s = s->list) {
				fprintf(stderr, "  ");
				if (s->cooked != NULL)
					dt_td_printr_clause(pcb, stderr, s->cooked, s->pdescs, 1);
				else
					dt_td_printr_clause(pcb, stderr, s, s->pdescs, 1);
			}
			continue;
		}
		dt_td_printr(pcb, stderr, n, 1);
	}
	fflush(stderr);
}

/* Pass 2: a clause cooked for one of its descriptions (c, its copy, lacks them). */
void
dt_treedump_clause(dt_pcb_t *pcb, const dt_node_t *c, const dt_node_t *pdescs)
{
	if (!dt_treedump_pass(pcb, 2))
		return;
	dt_td_printr_clause(pcb, stderr, c, pdescs, 0);
	fflush(stderr);
}

/* Pass 4: a clause as D, before it is cooked. */
void
dt_treedump_d(dt_pcb_t *pcb, const dt_node_t *c)
{
	if (!dt_treedump_pass(pcb, 4))
		return;
	dt_td_printd(pcb, stderr, c, 0);
	fflush(stderr);
}
