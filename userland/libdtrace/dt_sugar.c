/*
 * dt_sugar.c: if/else, compiled the way DTrace compiles it.
 *
 * DIF has no backward branches and an ECB has one predicate, so DTrace
 * turns a clause that contains `if' statements (a "super-clause") into a
 * sequence of plain clauses on the same probe descriptions, one per basic
 * block, run in order by the same probe firing:
 *
 *   - each condition is evaluated by a clause of its own that stores it,
 *     as 0 or 1, in the clause-local `this->%condition_N' (N counts from 1
 *     within the super-clause; `%' keeps the names out of the user's way):
 *     `this->%condition_N = (this->%condition_<outer> && cond)', or
 *     `(1 && cond)' at the outermost level, and `!this->%condition_<if>' for
 *     an else;
 *   - each run of statements becomes a clause whose predicate is its
 *     condition;
 *   - the clause's own predicate is the first condition;
 *   - every clause but the first also tests `!self->%error': a fault in one
 *     sub-clause (the ERROR probe sets self->%error, in a dtrace:::ERROR
 *     clause added once per consumer) stops the rest, and a leading clause
 *     resets self->%error = 0 at each firing.
 *
 * Clause-local variables keep their storage across the clauses of one
 * firing, which is what makes the conditions visible to later sub-clauses.
 * Called by dt_compile_program() on each clause before it is compiled.
 */
#include <stdio.h>
#include <string.h>

#include "dt_grammar.h"
#include "dt_parse.h"

typedef struct dt_sugar {
	dt_pcb_t *pcb;
	dt_node_t *pdescs; /* shared by every sub-clause */
	int nconds;        /* conditions created so far */
	int line;          /* where generated nodes claim to be */
	dt_node_t *out;    /* the sub-clauses, in order */
	uint64_t endline;  /* the clause's closing line, kept by each sub-clause (dt_action.c) */
} dt_sugar_t;

static dt_node_t *
sg_lined(dt_sugar_t *s, dt_node_t *n)
{
	n->line = s->line;
	return n;
}

static dt_node_t *
sg_scoped(dt_sugar_t *s, const char *scope, const char *name)
{
	return sg_lined(s, dt_node_op2(s->pcb, DT_TOK_PTR, sg_lined(s, dt_node_ident(s->pcb, scope)),
				       sg_lined(s, dt_node_ident(s->pcb, dt_strdup(s->pcb, name)))));
}

static dt_node_t *
sg_error_var(dt_sugar_t *s)
{
	return sg_scoped(s, "self", "%error");
}

static dt_node_t *
sg_cond_var(dt_sugar_t *s, int id)
{
	char name[32];
	snprintf(name, sizeof(name), "%%condition_%d", id);
	return sg_scoped(s, "this", name);
}

static dt_node_t *
sg_not(dt_sugar_t *s, dt_node_t *n)
{
	return sg_lined(s, dt_node_op1(s->pcb, DT_TOK_LNEG, n));
}

static dt_node_t *
sg_stmt(dt_sugar_t *s, dt_node_t *expr)
{
	dt_node_t *st = sg_lined(s, dt_node_new(s->pcb, DT_NODE_EXPSTMT));
	st->left = expr;
	return st;
}

static dt_node_t *
sg_clause(dt_sugar_t *s, dt_node_t *pdescs, dt_node_t *pred, dt_node_t *acts)
{
	dt_node_t *c = sg_lined(s, dt_node_new(s->pcb, DT_NODE_CLAUSE));
	c->pdescs = pdescs;
	c->pred = pred;
	c->args = acts;
	c->value = s->endline;
	return c;
}

static void
sg_append(dt_sugar_t *s, dt_node_t *clause)
{
	s->out = dt_node_link(s->out, clause);
}

/* A clause computing a new condition under condition `outer' (0: none). */
static int
sg_new_cond(dt_sugar_t *s, dt_node_t *cond, int outer)
{
	int id = ++s->nconds;
	dt_node_t *lhs = outer == 0 ? sg_lined(s, dt_node_int(s->pcb, 1)) : sg_cond_var(s, outer);
	dt_node_t *value = sg_lined(s, dt_node_op2(s->pcb, DT_TOK_LAND, lhs, cond));
	dt_node_t *set = sg_lined(s, dt_node_op2(s->pcb, DT_TOK_ASGN, sg_cond_var(s, id), value));

	sg_append(s, sg_clause(s, s->pdescs, sg_not(s, sg_error_var(s)), sg_stmt(s, set)));
	return id;
}

/* A clause running `stmts' when condition `cond' holds (0: unconditionally). */
static void
sg_block(dt_sugar_t *s, int cond, dt_node_t *stmts)
{
	dt_node_t *pred = NULL;

	if (cond != 0)
		pred = sg_lined(s, dt_node_op2(s->pcb, DT_TOK_LAND, sg_not(s, sg_error_var(s)),
					       sg_cond_var(s, cond)));
	else if (s->nconds != 0)
		pred = sg_not(s, sg_error_var(s));
	sg_append(s, sg_clause(s, s->pdescs, pred, stmts));
}

static void sg_stmts(dt_sugar_t *s, dt_node_t *stmts, int cond);

static void
sg_if(dt_sugar_t *s, dt_node_t *ifn, int outer)
{
	int id;

	s->line = ifn->line;
	id = sg_new_cond(s, ifn->cond, outer);
	sg_stmts(s, ifn->left, id);
	if (ifn->right != NULL)
		sg_stmts(s, ifn->right, sg_new_cond(s, sg_not(s, sg_cond_var(s, id)), outer));
}

/* Split a statement list at its if statements into basic blocks. */
static void
sg_stmts(dt_sugar_t *s, dt_node_t *stmts, int cond)
{
	dt_node_t *st, *next, *prev = NULL, *first = NULL;

	for (st = stmts; st != NULL; st = next) {
		next = st->list;
		if (st->kind != DT_NODE_IF) {
			if (first == NULL)
				first = st;
			prev = st;
			continue;
		}
		if (prev != NULL)
			prev->list = NULL; /* the block ends before the if */
		if (first != NULL)
			sg_block(s, cond, first);
		sg_if(s, st, cond);
		first = NULL;
		prev = st;
	}
	if (first != NULL)
		sg_block(s, cond, first);
}

static bool
sg_has_if(const dt_node_t *stmts)
{
	for (const dt_node_t *st = stmts; st != NULL; st = st->list)
		if (st->kind == DT_NODE_IF)
			return true;
	return false;
}

dt_node_t *
dt_sugar(dt_pcb_t *pcb, dt_node_t *clause)
{
	dt_sugar_t s;
	int cond = 0;

	memset(&s, 0, sizeof(s));
	s.pcb = pcb;
	s.pdescs = clause->pdescs;
	s.line = clause->line;
	s.endline = clause->value;

	if (!sg_has_if(clause->args)) {
		sg_append(&s, sg_clause(&s, clause->pdescs, clause->pred, clause->args));
		return s.out;
	}
	if (clause->pred != NULL)
		cond = sg_new_cond(&s, clause->pred, 0);
	sg_stmts(&s, clause->args, cond);

	s.line = clause->line;
	if (s.nconds != 0) {
		dt_node_t *reset = dt_node_op2(pcb, DT_TOK_ASGN, sg_error_var(&s), sg_lined(&s, dt_node_int(pcb, 0)));
		dt_node_t *c = sg_clause(&s, s.pdescs, NULL, sg_stmt(&s, sg_lined(&s, reset)));
		c->list = s.out;
		s.out = c;
	}
	if (s.out != NULL && s.out->list != NULL && !pcb->has_sugar) {
		dt_node_t *pd = dt_pdesc_node(pcb, "dtrace:::ERROR", clause->line);
		dt_node_t *set = dt_node_op2(pcb, DT_TOK_ASGN, sg_error_var(&s), sg_lined(&s, dt_node_int(pcb, 1)));
		dt_node_t *c = sg_clause(&s, pd, NULL, sg_stmt(&s, sg_lined(&s, set)));
		pcb->has_sugar = true;
		c->list = s.out;
		s.out = c;
	}
	return s.out;
}
