/*
 * core/dif/dif_validate.c: the DIF validator.
 *
 * A DIFO from DOF is untrusted until dtrace_difo_validate() has accepted
 * it; the interpreter then relies on everything checked here and checks
 * nothing of it again (register numbers index its register file directly,
 * table indices index the tables, branches only go forward so every
 * program ends).  The checks, in DTrace's spirit but stricter where the
 * interpreter would otherwise have to guess:
 *   - every opcode is one this core runs, with its reserved operand bits 0;
 *   - registers are below nregs (and the interpreter's DIF_DIR_NREGS), %r0
 *     is never written, stores never go through %r0;
 *   - branches land on a later instruction inside the DIFO;
 *   - integer-table indices and string-table offsets are in range and the
 *     string table ends with a NUL;
 *   - user variables are declared in the vartab with the scope and kind the
 *     instruction uses, and agree with variables other DIFOs of the same
 *     consumer already defined; built-in variables and arrays are ones this
 *     core can produce;
 *   - subroutines exist, are implemented here, and are allowed by the
 *     consumer's privilege and the destructive option;
 *   - the tuple stack never holds more than DIF_DTR_NREGS entries on any
 *     path;
 *   - the last instruction is RET, and the return type is a plain value of
 *     0/1/2/4/8 bytes or a bounded by-reference type.
 *
 * Not probe context: called by DOF loading with FRAMEWORK held.  The first
 * error is described in `why` as "DIF offset N (op): reason", N being the
 * instruction's byte offset as DTrace reports DIF offsets.
 */
#include "dif_internal.h"

static const char *const dif_opnames[DIF_OP_MAX + 1] = {
	[DIF_OP_OR] = "or",	    [DIF_OP_XOR] = "xor",	[DIF_OP_AND] = "and",
	[DIF_OP_SLL] = "sll",	    [DIF_OP_SRL] = "srl",	[DIF_OP_SUB] = "sub",
	[DIF_OP_ADD] = "add",	    [DIF_OP_MUL] = "mul",	[DIF_OP_SDIV] = "sdiv",
	[DIF_OP_UDIV] = "udiv",	    [DIF_OP_SREM] = "srem",	[DIF_OP_UREM] = "urem",
	[DIF_OP_NOT] = "not",	    [DIF_OP_MOV] = "mov",	[DIF_OP_CMP] = "cmp",
	[DIF_OP_TST] = "tst",	    [DIF_OP_BA] = "ba",		[DIF_OP_BE] = "be",
	[DIF_OP_BNE] = "bne",	    [DIF_OP_BG] = "bg",		[DIF_OP_BGU] = "bgu",
	[DIF_OP_BGE] = "bge",	    [DIF_OP_BGEU] = "bgeu",	[DIF_OP_BL] = "bl",
	[DIF_OP_BLU] = "blu",	    [DIF_OP_BLE] = "ble",	[DIF_OP_BLEU] = "bleu",
	[DIF_OP_LDSB] = "ldsb",	    [DIF_OP_LDSH] = "ldsh",	[DIF_OP_LDSW] = "ldsw",
	[DIF_OP_LDUB] = "ldub",	    [DIF_OP_LDUH] = "lduh",	[DIF_OP_LDUW] = "lduw",
	[DIF_OP_LDX] = "ldx",	    [DIF_OP_RET] = "ret",	[DIF_OP_NOP] = "nop",
	[DIF_OP_SETX] = "setx",	    [DIF_OP_SETS] = "sets",	[DIF_OP_SCMP] = "scmp",
	[DIF_OP_LDGA] = "ldga",	    [DIF_OP_LDGS] = "ldgs",	[DIF_OP_STGS] = "stgs",
	[DIF_OP_LDTA] = "ldta",	    [DIF_OP_LDTS] = "ldts",	[DIF_OP_STTS] = "stts",
	[DIF_OP_SRA] = "sra",	    [DIF_OP_CALL] = "call",	[DIF_OP_PUSHTR] = "pushtr",
	[DIF_OP_PUSHTV] = "pushtv", [DIF_OP_POPTS] = "popts",	[DIF_OP_FLUSHTS] = "flushts",
	[DIF_OP_LDGAA] = "ldgaa",   [DIF_OP_LDTAA] = "ldtaa",	[DIF_OP_STGAA] = "stgaa",
	[DIF_OP_STTAA] = "sttaa",   [DIF_OP_LDLS] = "ldls",	[DIF_OP_STLS] = "stls",
	[DIF_OP_ALLOCS] = "allocs", [DIF_OP_COPYS] = "copys",	[DIF_OP_STB] = "stb",
	[DIF_OP_STH] = "sth",	    [DIF_OP_STW] = "stw",	[DIF_OP_STX] = "stx",
	[DIF_OP_ULDSB] = "uldsb",   [DIF_OP_ULDSH] = "uldsh",	[DIF_OP_ULDSW] = "uldsw",
	[DIF_OP_ULDUB] = "uldub",   [DIF_OP_ULDUH] = "ulduh",	[DIF_OP_ULDUW] = "ulduw",
	[DIF_OP_ULDX] = "uldx",	    [DIF_OP_RLDSB] = "rldsb",	[DIF_OP_RLDSH] = "rldsh",
	[DIF_OP_RLDSW] = "rldsw",   [DIF_OP_RLDUB] = "rldub",	[DIF_OP_RLDUH] = "rlduh",
	[DIF_OP_RLDUW] = "rlduw",   [DIF_OP_RLDX] = "rldx",	[DIF_OP_XLATE] = "xlate",
	[DIF_OP_XLARG] = "xlarg",   [DIF_OP_STGA] = "stga",
};

/* Operand shapes: which fields are registers, immediates, or must be 0. */
enum dif_shape {
	S_BAD = 0,  /* not an opcode this core runs */
	S_RRR,	    /* r1, r2 read; rd written */
	S_R1RD,	    /* r1 read, rd written, r2 == 0 */
	S_STORE,    /* r1 value, rd address (not %r0), r2 == 0 */
	S_CMP,	    /* r1, r2 read, rd == 0 */
	S_TST,	    /* r1 read, r2 == rd == 0 */
	S_BRANCH,   /* 24-bit label */
	S_RET,	    /* rd read, r1 == r2 == 0 */
	S_NONE,	    /* everything 0 */
	S_SETX,	    /* integer index, rd written */
	S_SETS,	    /* string offset, rd written */
	S_LDGA,	    /* array id in r1, index register r2, rd written */
	S_LDV,	    /* variable id, rd written */
	S_STV,	    /* variable id, rs read */
	S_CALL,	    /* subroutine, rd written */
	S_PUSHTR,   /* type in r1, size register r2, rs read */
	S_PUSHTV,   /* type in r1 (CTF), r2 read, rs read */
	S_UNSUPP,   /* a real opcode this core refuses (see dif_unsupported) */
};

static const uint8_t dif_shapes[DIF_OP_MAX + 1] = {
	[DIF_OP_OR] = S_RRR,	   [DIF_OP_XOR] = S_RRR,	[DIF_OP_AND] = S_RRR,
	[DIF_OP_SLL] = S_RRR,	   [DIF_OP_SRL] = S_RRR,	[DIF_OP_SUB] = S_RRR,
	[DIF_OP_ADD] = S_RRR,	   [DIF_OP_MUL] = S_RRR,	[DIF_OP_SDIV] = S_RRR,
	[DIF_OP_UDIV] = S_RRR,	   [DIF_OP_SREM] = S_RRR,	[DIF_OP_UREM] = S_RRR,
	[DIF_OP_SRA] = S_RRR,	   [DIF_OP_COPYS] = S_RRR,	[DIF_OP_NOT] = S_R1RD,
	[DIF_OP_MOV] = S_R1RD,	   [DIF_OP_ALLOCS] = S_R1RD,	[DIF_OP_CMP] = S_CMP,
	[DIF_OP_SCMP] = S_CMP,	   [DIF_OP_TST] = S_TST,	[DIF_OP_BA] = S_BRANCH,
	[DIF_OP_BE] = S_BRANCH,	   [DIF_OP_BNE] = S_BRANCH,	[DIF_OP_BG] = S_BRANCH,
	[DIF_OP_BGU] = S_BRANCH,   [DIF_OP_BGE] = S_BRANCH,	[DIF_OP_BGEU] = S_BRANCH,
	[DIF_OP_BL] = S_BRANCH,	   [DIF_OP_BLU] = S_BRANCH,	[DIF_OP_BLE] = S_BRANCH,
	[DIF_OP_BLEU] = S_BRANCH,  [DIF_OP_LDSB] = S_R1RD,	[DIF_OP_LDSH] = S_R1RD,
	[DIF_OP_LDSW] = S_R1RD,	   [DIF_OP_LDUB] = S_R1RD,	[DIF_OP_LDUH] = S_R1RD,
	[DIF_OP_LDUW] = S_R1RD,	   [DIF_OP_LDX] = S_R1RD,	[DIF_OP_RLDSB] = S_R1RD,
	[DIF_OP_RLDSH] = S_R1RD,   [DIF_OP_RLDSW] = S_R1RD,	[DIF_OP_RLDUB] = S_R1RD,
	[DIF_OP_RLDUH] = S_R1RD,   [DIF_OP_RLDUW] = S_R1RD,	[DIF_OP_RLDX] = S_R1RD,
	[DIF_OP_ULDSB] = S_R1RD,   [DIF_OP_ULDSH] = S_R1RD,	[DIF_OP_ULDSW] = S_R1RD,
	[DIF_OP_ULDUB] = S_R1RD,   [DIF_OP_ULDUH] = S_R1RD,	[DIF_OP_ULDUW] = S_R1RD,
	[DIF_OP_ULDX] = S_R1RD,	   [DIF_OP_STB] = S_STORE,	[DIF_OP_STH] = S_STORE,
	[DIF_OP_STW] = S_STORE,	   [DIF_OP_STX] = S_STORE,	[DIF_OP_RET] = S_RET,
	[DIF_OP_NOP] = S_NONE,	   [DIF_OP_POPTS] = S_NONE,	[DIF_OP_FLUSHTS] = S_NONE,
	[DIF_OP_SETX] = S_SETX,	   [DIF_OP_SETS] = S_SETS,	[DIF_OP_LDGA] = S_LDGA,
	[DIF_OP_LDGS] = S_LDV,	   [DIF_OP_LDTS] = S_LDV,	[DIF_OP_LDLS] = S_LDV,
	[DIF_OP_LDGAA] = S_LDV,	   [DIF_OP_LDTAA] = S_LDV,	[DIF_OP_STGS] = S_STV,
	[DIF_OP_STTS] = S_STV,	   [DIF_OP_STLS] = S_STV,	[DIF_OP_STGAA] = S_STV,
	[DIF_OP_STTAA] = S_STV,	   [DIF_OP_CALL] = S_CALL,	[DIF_OP_PUSHTR] = S_PUSHTR,
	[DIF_OP_PUSHTV] = S_PUSHTV, [DIF_OP_LDTA] = S_UNSUPP,	[DIF_OP_XLATE] = S_UNSUPP,
	[DIF_OP_XLARG] = S_UNSUPP, [DIF_OP_STGA] = S_UNSUPP,
};

static const char *
dif_unsupported(uint32_t op)
{
	switch (op) {
	case DIF_OP_LDTA:
		return "there are no thread-local arrays to load from";
	case DIF_OP_STGA:
		return "no built-in array is writable";
	default: /* XLATE, XLARG */
		return "translator references must be resolved by the compiler";
	}
}

/* --- The reason string: a tiny formatter (the core has no snprintf) ------- */

typedef struct dif_why {
	char *buf;
	size_t len;
	size_t pos;
	int nerr;
} dif_why_t;

static void
why_str(dif_why_t *w, const char *s)
{
	if (w->buf == NULL || w->len == 0)
		return;
	while (*s != '\0' && w->pos + 1 < w->len)
		w->buf[w->pos++] = *s++;
	w->buf[w->pos] = '\0';
}

static void
why_num(dif_why_t *w, uint64_t v, int base)
{
	char tmp[24];
	int i = (int)sizeof(tmp) - 1;

	tmp[i] = '\0';
	do {
		tmp[--i] = "0123456789abcdef"[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v != 0 && i > 2);
	if (base == 16) {
		tmp[--i] = 'x';
		tmp[--i] = '0';
	}
	why_str(w, &tmp[i]);
}

/*
 * Count an error; describe it if it is the first.  The message is
 * "DIF offset <pc*4> (<op>): <a><n><b>" with the number optional.
 */
static void
dif_err(dif_why_t *w, uint32_t pc, uint32_t op, const char *a, int64_t n, const char *b)
{
	if (w->nerr++ != 0)
		return;
	why_str(w, "DIF offset ");
	why_num(w, (uint64_t)pc * sizeof(dif_instr_t), 10);
	if (op <= DIF_OP_MAX && dif_opnames[op] != NULL) {
		why_str(w, " (");
		why_str(w, dif_opnames[op]);
		why_str(w, ")");
	}
	why_str(w, ": ");
	why_str(w, a);
	if (n >= 0)
		why_num(w, (uint64_t)n, 10);
	if (b != NULL)
		why_str(w, b);
}

/* An error about the DIFO as a whole, or one vartab entry. */
static void
dif_err_obj(dif_why_t *w, const char *a, int64_t n, const char *b)
{
	if (w->nerr++ != 0)
		return;
	why_str(w, a);
	if (n >= 0)
		why_num(w, (uint64_t)n, 10);
	if (b != NULL)
		why_str(w, b);
}

/* --- Variables ------------------------------------------------------------------ */

static const dtrace_difv_t *
dif_vartab_find(const dtrace_difo_t *dp, uint32_t id, uint8_t scope)
{
	for (uint32_t i = 0; i < dp->dtdo_varlen; i++) {
		const dtrace_difv_t *v = &dp->dtdo_vartab[i];
		if (v->dtdv_id == id && v->dtdv_scope == scope)
			return v;
	}
	return NULL;
}

/* The variable another DIFO of this consumer already defined, if any. */
static const dtrace_difv_t *
dif_existing(const dtrace_vstate_t *vs, const dtrace_difv_t *v)
{
	uint32_t ndx = v->dtdv_id - DIF_VAR_OTHER_UBASE;
	const dtrace_statvar_t *sv = NULL;

	if (vs == NULL)
		return NULL;
	switch (v->dtdv_scope) {
	case DIFV_SCOPE_GLOBAL:
		if (ndx < (uint32_t)vs->dtvs_nglobals)
			sv = vs->dtvs_globals[ndx];
		break;
	case DIFV_SCOPE_LOCAL:
		if (ndx < (uint32_t)vs->dtvs_nlocals)
			sv = vs->dtvs_locals[ndx];
		break;
	case DIFV_SCOPE_THREAD:
		if (ndx < (uint32_t)vs->dtvs_ntlocals && vs->dtvs_tlocals[ndx].dtdv_id != 0)
			return &vs->dtvs_tlocals[ndx];
		return NULL;
	}
	return sv != NULL ? &sv->dtsv_var : NULL;
}

static bool
dif_sametype(const dtrace_difv_t *a, const dtrace_difv_t *b)
{
	return a->dtdv_kind == b->dtdv_kind && a->dtdv_type.dtdt_kind == b->dtdv_type.dtdt_kind &&
	       a->dtdv_type.dtdt_flags == b->dtdv_type.dtdt_flags &&
	       a->dtdv_type.dtdt_size == b->dtdv_type.dtdt_size;
}

static void
dif_check_vartab(const dtrace_difo_t *dp, const dtrace_vstate_t *vs, dif_why_t *w)
{
	for (uint32_t i = 0; i < dp->dtdo_varlen; i++) {
		const dtrace_difv_t *v = &dp->dtdo_vartab[i], *e;
		const dtrace_diftype_t *t = &v->dtdv_type;

		if (v->dtdv_scope > DIFV_SCOPE_LOCAL) {
			dif_err_obj(w, "variable table entry ", i, ": unknown scope");
			continue;
		}
		if (v->dtdv_kind != DIFV_KIND_ARRAY && v->dtdv_kind != DIFV_KIND_SCALAR) {
			dif_err_obj(w, "variable table entry ", i, ": unknown kind");
			continue;
		}
		if (v->dtdv_id > DIF_VARIABLE_MAX) {
			dif_err_obj(w, "variable table entry ", i, ": id exceeds DIF_VARIABLE_MAX");
			continue;
		}
		if (t->dtdt_kind != DIF_TYPE_CTF && t->dtdt_kind != DIF_TYPE_STRING) {
			dif_err_obj(w, "variable table entry ", i, ": unknown type kind");
			continue;
		}
		if (v->dtdv_id < DIF_VAR_OTHER_UBASE)
			continue; /* a built-in named for the record: nothing to store */
		if (t->dtdt_flags & DIF_TF_BYUREF) {
			dif_err_obj(w, "variable table entry ", i,
				    ": a variable cannot hold user-space data by reference");
			continue;
		}
		if (t->dtdt_flags & DIF_TF_BYREF) {
			if (t->dtdt_size == 0) {
				dif_err_obj(w, "variable table entry ", i,
					    ": zero-sized by-reference variable");
				continue;
			}
			if (v->dtdv_scope != DIFV_SCOPE_THREAD && v->dtdv_kind == DIFV_KIND_SCALAR &&
			    t->dtdt_size > DTRACE_STATVAR_MAXSIZE) {
				dif_err_obj(w, "variable table entry ", i,
					    ": by-reference global or clause-local larger than 16384 bytes");
				continue;
			}
		}
		if (v->dtdv_scope == DIFV_SCOPE_LOCAL && v->dtdv_kind != DIFV_KIND_SCALAR) {
			dif_err_obj(w, "variable table entry ", i,
				    ": clause-local variables cannot be arrays");
			continue;
		}
		/* One definition per (id, scope) within the DIFO... */
		for (uint32_t j = 0; j < i; j++) {
			const dtrace_difv_t *o = &dp->dtdo_vartab[j];
			if (o->dtdv_id == v->dtdv_id && o->dtdv_scope == v->dtdv_scope &&
			    !dif_sametype(o, v)) {
				dif_err_obj(w, "variable table entry ", i,
					    ": conflicting definitions of one variable");
				break;
			}
		}
		/* ...and the same as other DIFOs of this consumer gave it. */
		if ((e = dif_existing(vs, v)) != NULL && e->dtdv_id != 0 && !dif_sametype(e, v))
			dif_err_obj(w, "variable table entry ", i,
				    ": kind or type differs from an earlier definition");
	}
}

/* Scope and kind a variable instruction addresses. */
static void
dif_var_access(uint32_t op, uint8_t *scope, uint8_t *kind)
{
	switch (op) {
	case DIF_OP_LDGS:
	case DIF_OP_STGS:
		*scope = DIFV_SCOPE_GLOBAL, *kind = DIFV_KIND_SCALAR;
		break;
	case DIF_OP_LDGAA:
	case DIF_OP_STGAA:
		*scope = DIFV_SCOPE_GLOBAL, *kind = DIFV_KIND_ARRAY;
		break;
	case DIF_OP_LDTS:
	case DIF_OP_STTS:
		*scope = DIFV_SCOPE_THREAD, *kind = DIFV_KIND_SCALAR;
		break;
	case DIF_OP_LDTAA:
	case DIF_OP_STTAA:
		*scope = DIFV_SCOPE_THREAD, *kind = DIFV_KIND_ARRAY;
		break;
	default: /* LDLS, STLS */
		*scope = DIFV_SCOPE_LOCAL, *kind = DIFV_KIND_SCALAR;
		break;
	}
}

static void
dif_check_var(const dtrace_difo_t *dp, uint32_t pc, uint32_t op, uint32_t id, dif_why_t *w)
{
	const dtrace_difv_t *v;
	const char *name;
	uint8_t scope, kind;

	if (id < DIF_VAR_OTHER_UBASE) {
		if (op != DIF_OP_LDGS) {
			dif_err(w, pc, op, "variable ", id,
				" is a built-in: only ldgs may read a built-in scalar");
			return;
		}
		if (!dtrace_dif_var_supported(id, &name)) {
			if (name == NULL)
				dif_err(w, pc, op, "unknown built-in variable ", id, NULL);
			else
				dif_err(w, pc, op, name,
					-1, " is not available in this core (no portable source)");
		}
		return;
	}
	dif_var_access(op, &scope, &kind);
	if ((v = dif_vartab_find(dp, id, scope)) == NULL) {
		dif_err(w, pc, op, "variable ", id, " is not declared in the variable table");
		return;
	}
	if (v->dtdv_kind != kind)
		dif_err(w, pc, op, "variable ", id,
			kind == DIFV_KIND_ARRAY ? " is a scalar, used as an associative array"
						: " is an associative array, used as a scalar");
}

/* --- Subroutines ------------------------------------------------------------------ */

static void
dif_check_subr(uint32_t pc, uint32_t subr, uint32_t priv, dif_why_t *w)
{
	const dtrace_subr_info_t *si = dtrace_dif_subr_info(subr);

	if (si == NULL || si->dsi_name == NULL) {
		dif_err(w, pc, DIF_OP_CALL, "unknown subroutine ", subr, NULL);
		return;
	}
	if (!(si->dsi_flags & DTRACE_SUBR_IMPL)) {
		dif_err(w, pc, DIF_OP_CALL, si->dsi_name, -1,
			"() is not available in this core (it reads OS-specific kernel structures)");
		return;
	}
	if ((si->dsi_flags & DTRACE_SUBR_DESTRUCTIVE) && !(priv & DTRACE_DIF_DESTRUCTIVE_OK)) {
		dif_err(w, pc, DIF_OP_CALL, "destructive subroutine ", -1, NULL);
		why_str(w, si->dsi_name);
		why_str(w, "() needs the destructive option");
		return;
	}
	if ((si->dsi_flags & DTRACE_SUBR_PROC) &&
	    !(priv & (DTRACE_PRIV_PROC | DTRACE_PRIV_OWNER | DTRACE_PRIV_KERNEL))) {
		dif_err(w, pc, DIF_OP_CALL, si->dsi_name, -1,
			"() needs the proc privilege (acting on the traced process)");
	}
}

bool
dtrace_difo_destructive(const dtrace_difo_t *dp)
{
	for (uint32_t pc = 0; pc < dp->dtdo_len; pc++) {
		dif_instr_t in = dp->dtdo_buf[pc];
		const dtrace_subr_info_t *si;

		if (DIF_INSTR_OP(in) != DIF_OP_CALL)
			continue;
		si = dtrace_dif_subr_info(DIF_INSTR_SUBR(in));
		if (si != NULL && (si->dsi_flags & DTRACE_SUBR_DESTRUCTIVE))
			return true;
	}
	return false;
}

/* --- The tuple stack ----------------------------------------------------------------- */

/*
 * Deepest tuple stack any path reaches.  Branches only go forward (checked
 * before this runs), so one pass in program order sees every predecessor of
 * an instruction before the instruction itself.
 */
static void
dif_check_tuples(const dtrace_difo_t *dp, dif_why_t *w)
{
	uint32_t len = dp->dtdo_len;
	uint8_t *in = dtrace_port_zalloc(len + 1); /* depth entering each pc */
	uint8_t *live = dtrace_port_zalloc(len + 1);

	if (in == NULL || live == NULL) {
		dif_err_obj(w, "out of memory checking the tuple stack", -1, NULL);
		goto out;
	}
	live[0] = 1;
	for (uint32_t pc = 0; pc < len; pc++) {
		dif_instr_t instr = dp->dtdo_buf[pc];
		uint32_t op = DIF_INSTR_OP(instr);
		unsigned d = in[pc];
		bool falls = true;

		if (!live[pc])
			continue;
		switch (op) {
		case DIF_OP_PUSHTR:
		case DIF_OP_PUSHTV:
			if (d == DIF_DTR_NREGS) {
				dif_err(w, pc, op, "tuple stack overflow: more than ", DIF_DTR_NREGS,
					" entries on some path");
				goto out;
			}
			d++;
			break;
		case DIF_OP_POPTS:
			d = d != 0 ? d - 1 : 0;
			break;
		case DIF_OP_FLUSHTS:
			d = 0;
			break;
		case DIF_OP_RET:
			falls = false;
			break;
		case DIF_OP_BA:
			falls = false;
			/* FALLTHROUGH */
		case DIF_OP_BE:
		case DIF_OP_BNE:
		case DIF_OP_BG:
		case DIF_OP_BGU:
		case DIF_OP_BGE:
		case DIF_OP_BGEU:
		case DIF_OP_BL:
		case DIF_OP_BLU:
		case DIF_OP_BLE:
		case DIF_OP_BLEU: {
			uint32_t t = DIF_INSTR_LABEL(instr);
			if (!live[t] || in[t] < d)
				in[t] = (uint8_t)d;
			live[t] = 1;
			break;
		}
		default:
			break;
		}
		if (falls && pc + 1 < len) {
			if (!live[pc + 1] || in[pc + 1] < d)
				in[pc + 1] = (uint8_t)d;
			live[pc + 1] = 1;
		}
	}
out:
	dtrace_port_free(in, len + 1);
	dtrace_port_free(live, len + 1);
}

/* --- The instructions ------------------------------------------------------------ */

static void
dif_check_reg(dif_why_t *w, uint32_t pc, uint32_t op, uint32_t r, uint32_t nregs)
{
	if (r >= nregs)
		dif_err(w, pc, op, "invalid register %r", r, NULL);
}

static void
dif_check_rd(dif_why_t *w, uint32_t pc, uint32_t op, uint32_t rd, uint32_t nregs)
{
	if (rd >= nregs)
		dif_err(w, pc, op, "invalid register %r", rd, NULL);
	else if (rd == 0)
		dif_err(w, pc, op, "cannot write to %r0", -1, NULL);
}

static void
dif_check_zero(dif_why_t *w, uint32_t pc, uint32_t op, uint32_t bits)
{
	if (bits != 0)
		dif_err(w, pc, op, "non-zero reserved bits", -1, NULL);
}

static void
dif_check_instr(const dtrace_difo_t *dp, uint32_t pc, uint32_t nregs, uint32_t priv,
		dif_why_t *w)
{
	dif_instr_t instr = dp->dtdo_buf[pc];
	uint32_t op = DIF_INSTR_OP(instr);
	uint32_t r1 = DIF_INSTR_R1(instr), r2 = DIF_INSTR_R2(instr), rd = DIF_INSTR_RD(instr);
	uint32_t label, v;

	switch (op <= DIF_OP_MAX ? dif_shapes[op] : S_BAD) {
	case S_RRR:
		dif_check_reg(w, pc, op, r1, nregs);
		dif_check_reg(w, pc, op, r2, nregs);
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_R1RD:
		dif_check_reg(w, pc, op, r1, nregs);
		dif_check_zero(w, pc, op, r2);
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_STORE:
		dif_check_reg(w, pc, op, r1, nregs);
		dif_check_zero(w, pc, op, r2);
		if (rd >= nregs)
			dif_err(w, pc, op, "invalid register %r", rd, NULL);
		else if (rd == 0)
			dif_err(w, pc, op, "cannot store through %r0 (the 0 address)", -1, NULL);
		break;
	case S_CMP:
		dif_check_reg(w, pc, op, r1, nregs);
		dif_check_reg(w, pc, op, r2, nregs);
		dif_check_zero(w, pc, op, rd);
		break;
	case S_TST:
		dif_check_reg(w, pc, op, r1, nregs);
		dif_check_zero(w, pc, op, r2 | rd);
		break;
	case S_BRANCH:
		label = DIF_INSTR_LABEL(instr);
		if (label >= dp->dtdo_len)
			dif_err(w, pc, op, "branch target ", label, " is past the last instruction");
		else if (label <= pc)
			dif_err(w, pc, op, "backward branch to instruction ", label, NULL);
		break;
	case S_RET:
		dif_check_zero(w, pc, op, r1 | r2);
		dif_check_reg(w, pc, op, rd, nregs);
		break;
	case S_NONE:
		dif_check_zero(w, pc, op, r1 | r2 | rd);
		break;
	case S_SETX:
		if (DIF_INSTR_INTEGER(instr) >= dp->dtdo_intlen)
			dif_err(w, pc, op, "integer table index ", DIF_INSTR_INTEGER(instr),
				" out of range");
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_SETS:
		if (DIF_INSTR_STRING(instr) >= dp->dtdo_strlen)
			dif_err(w, pc, op, "string table offset ", DIF_INSTR_STRING(instr),
				" out of range");
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_LDGA:
		if (r1 == DIF_VAR_ARGS || r1 == DIF_VAR_UREGS)
			; /* the built-in arrays this core provides */
		else if (r1 == DIF_VAR_REGS || r1 == DIF_VAR_VMREGS)
			dif_err(w, pc, op, r1 == DIF_VAR_REGS ? "regs[]" : "vmregs[]", -1,
				" is not available in this core (no portable source)");
		else
			dif_err(w, pc, op, "unknown built-in array ", r1, NULL);
		dif_check_reg(w, pc, op, r2, nregs);
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_LDV:
		dif_check_var(dp, pc, op, DIF_INSTR_VAR(instr), w);
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_STV:
		v = DIF_INSTR_VAR(instr);
		if (v < DIF_VAR_OTHER_UBASE)
			dif_err(w, pc, op, "variable ", v, " is a built-in and cannot be stored to");
		else
			dif_check_var(dp, pc, op, v, w);
		dif_check_reg(w, pc, op, rd, nregs); /* rs */
		break;
	case S_CALL:
		dif_check_subr(pc, DIF_INSTR_SUBR(instr), priv, w);
		dif_check_rd(w, pc, op, rd, nregs);
		break;
	case S_PUSHTR:
		if (r1 != DIF_TYPE_STRING && r1 != DIF_TYPE_CTF)
			dif_err(w, pc, op, "invalid by-reference tuple type ", r1, NULL);
		dif_check_reg(w, pc, op, r2, nregs);
		dif_check_reg(w, pc, op, rd, nregs);
		break;
	case S_PUSHTV:
		if (r1 != DIF_TYPE_CTF)
			dif_err(w, pc, op, "invalid by-value tuple type ", r1, NULL);
		dif_check_reg(w, pc, op, r2, nregs);
		dif_check_reg(w, pc, op, rd, nregs);
		break;
	case S_UNSUPP:
		dif_err(w, pc, op, dif_unsupported(op), -1, NULL);
		break;
	default:
		dif_err(w, pc, op, "invalid opcode ", op, NULL);
		break;
	}
}

static void
dif_check_rtype(const dtrace_difo_t *dp, dif_why_t *w)
{
	const dtrace_diftype_t *t = &dp->dtdo_rtype;
	uint32_t last = dp->dtdo_len - 1;

	if (t->dtdt_kind != DIF_TYPE_CTF && t->dtdt_kind != DIF_TYPE_STRING) {
		dif_err(w, last, DIF_OP_RET, "unknown return type kind ", t->dtdt_kind, NULL);
		return;
	}
	if ((t->dtdt_flags & DIF_TF_BYREF) && (t->dtdt_flags & DIF_TF_BYUREF)) {
		dif_err(w, last, DIF_OP_RET,
			"return type is both by-reference and by-user-reference", -1, NULL);
		return;
	}
	if (!(t->dtdt_flags & (DIF_TF_BYREF | DIF_TF_BYUREF))) {
		switch (t->dtdt_size) {
		case 0:
		case 1:
		case 2:
		case 4:
		case 8:
			break;
		default:
			dif_err(w, last, DIF_OP_RET, "bad return size ", t->dtdt_size,
				" for a value returned in a register");
		}
		return;
	}
	if (t->dtdt_size == 0 && t->dtdt_kind != DIF_TYPE_STRING)
		dif_err(w, last, DIF_OP_RET, "zero-sized by-reference return", -1, NULL);
	else if (t->dtdt_size > DTRACE_DIF_BYREF_MAX)
		dif_err(w, last, DIF_OP_RET, "by-reference return of ", t->dtdt_size,
			" bytes exceeds the 1048576-byte limit");
}

int
dtrace_difo_validate(const dtrace_difo_t *dp, const dtrace_vstate_t *vs, uint32_t nregs,
		     uint32_t priv, char *why, size_t whylen)
{
	dif_why_t w = {why, whylen, 0, 0};

	if (why != NULL && whylen != 0)
		why[0] = '\0';
	if (nregs > DIF_DIR_NREGS)
		nregs = DIF_DIR_NREGS; /* the interpreter's register file */

	if (dp->dtdo_len == 0 || dp->dtdo_buf == NULL) {
		dif_err_obj(&w, "empty DIF object: no instructions", -1, NULL);
		return w.nerr;
	}
	if ((dp->dtdo_intlen != 0 && dp->dtdo_inttab == NULL) ||
	    (dp->dtdo_strlen != 0 && dp->dtdo_strtab == NULL) ||
	    (dp->dtdo_varlen != 0 && dp->dtdo_vartab == NULL)) {
		dif_err_obj(&w, "DIF object table missing for its non-zero length", -1, NULL);
		return w.nerr;
	}
	if (dp->dtdo_strlen != 0 && dp->dtdo_strtab[dp->dtdo_strlen - 1] != '\0')
		dif_err_obj(&w, "string table is not NUL-terminated", -1, NULL);

	dif_check_vartab(dp, vs, &w);
	for (uint32_t pc = 0; pc < dp->dtdo_len; pc++)
		dif_check_instr(dp, pc, nregs, priv, &w);
	if (DIF_INSTR_OP(dp->dtdo_buf[dp->dtdo_len - 1]) != DIF_OP_RET)
		dif_err(&w, dp->dtdo_len - 1, DIF_INSTR_OP(dp->dtdo_buf[dp->dtdo_len - 1]),
			"the last instruction must be ret", -1, NULL);
	dif_check_rtype(dp, &w);
	/* Depth analysis trusts the branch checks: only when all else passed. */
	if (w.nerr == 0)
		dif_check_tuples(dp, &w);
	return w.nerr;
}
