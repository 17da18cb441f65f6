/*
 * dt_cg.c: DIF code generation for D expressions.
 *
 * Each expression node is compiled into a register.  The conventions are
 * DTrace's: comparisons branch around a `setx 1', && and || short-circuit,
 * casts to narrower integers shift left then right, associative-array keys
 * and subroutine arguments go on the tuple stack (PUSHTV for values, PUSHTR
 * for strings and other by-reference data), built-in variables are read
 * with LDGS/LDGA, user variables with the load/store of their scope.
 */
#include <stdlib.h>
#include <string.h>

#include "dt_cg.h"
#include "dt_grammar.h"

#define CTF_K_INTEGER 1
#define CTF_K_POINTER 3
#define CTF_K_ARRAY 4
#define CTF_K_STRUCT 6
#define CTF_K_UNION 7
#define CTF_K_ENUM 8

#define DT_LBL_BIT 0x800000u /* marks a branch operand as a label id until finish */

static void *
dt_grow(dt_pcb_t *pcb, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	uint32_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(p, n * elem);
	if (q == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	memset((char *)q + *cap * elem, 0, (n - *cap) * elem);
	*cap = n;
	return q;
}

dt_difo_t *
dt_difo_new(dt_pcb_t *pcb)
{
	dt_difo_t *dp = calloc(1, sizeof(*dp));
	if (dp == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	dp->pcb = pcb;
	/* the program owns every DIFO so an error frees them all */
	struct dt_cprog_impl *impl = pcb->prog->impl;
	dp->id = impl->last != NULL ? impl->last->id + 1 : 0;
	if (impl->last == NULL)
		impl->difos = dp;
	else
		impl->last->next = dp;
	impl->last = dp;
	return dp;
}

void
dt_difo_free(dt_difo_t *dp)
{
	free(dp->buf);
	free(dp->inttab);
	free(dp->strtab);
	free(dp->vartab);
	free(dp->varids);
	free(dp->labels);
	free(dp);
}

static uint32_t
dt_emit(dt_difo_t *dp, dif_instr_t i)
{
	dp->buf = dt_grow(dp->pcb, dp->buf, &dp->cap, dp->len + 1, sizeof(dif_instr_t));
	dp->buf[dp->len] = i;
	return dp->len++;
}

static uint32_t
dt_label(dt_difo_t *dp)
{
	dp->labels = dt_grow(dp->pcb, dp->labels, &dp->labcap, dp->nlabels + 1, sizeof(uint32_t));
	dp->labels[dp->nlabels] = UINT32_MAX;
	return dp->nlabels++;
}

static void
dt_label_here(dt_difo_t *dp, uint32_t l)
{
	dp->labels[l] = dp->len;
}

static void
dt_branch(dt_difo_t *dp, int op, uint32_t l)
{
	dt_emit(dp, DIF_INSTR_BRANCH(op, DT_LBL_BIT | l));
}

/* Resolve labels; a label at the very end points at a trailing nop. */
void
dt_difo_finish(dt_difo_t *dp)
{
	bool needend = false;
	for (uint32_t i = 0; i < dp->nlabels; i++)
		if (dp->labels[i] == dp->len)
			needend = true;
	if (needend)
		dt_emit(dp, DIF_INSTR_NOP);
	for (uint32_t i = 0; i < dp->len; i++) {
		uint32_t op = DIF_INSTR_OP(dp->buf[i]);
		if (op >= DIF_OP_BA && op <= DIF_OP_BLEU) {
			uint32_t lab = DIF_INSTR_LABEL(dp->buf[i]);
			if (lab & DT_LBL_BIT)
				dp->buf[i] = DIF_INSTR_BRANCH(op, dp->labels[lab & ~DT_LBL_BIT]);
		}
	}
}

/* ---- registers ------------------------------------------------------------ */

/* The lowest free register of the iregs (-x iregs) the program may use; %r0 is never free. */
static int
dt_reg_alloc(dt_difo_t *dp)
{
	int nregs = dp->pcb->iregs < 256 ? dp->pcb->iregs : 256;

	for (int r = 1; r < nregs; r++) {
		if (!(dp->regs[r / 64] & (UINT64_C(1) << (r % 64)))) {
			dp->regs[r / 64] |= UINT64_C(1) << (r % 64);
			return r;
		}
	}
	dt_error(dp->pcb, 0, D_NOREG, "Insufficient registers to generate code");
}

static void
dt_reg_free(dt_difo_t *dp, int r)
{
	if (r > 0)
		dp->regs[r / 64] &= ~(UINT64_C(1) << (r % 64));
}

/* ---- tables -------------------------------------------------------------- */

static uint32_t
dt_inttab(dt_difo_t *dp, uint64_t v)
{
	for (uint32_t i = 0; i < dp->intlen; i++)
		if (dp->inttab[i] == v)
			return i;
	if (dp->intlen > DIF_INTOFF_MAX)
		dt_error(dp->pcb, 0, D_UNKNOWN, "integer table overflow");
	dp->inttab = dt_grow(dp->pcb, dp->inttab, &dp->intcap, dp->intlen + 1, sizeof(uint64_t));
	dp->inttab[dp->intlen] = v;
	return dp->intlen++;
}

/* A string's offset in dp's string table; offset 0 is always "" (DTrace's dt_strtab_create). */
static uint32_t
dt_strtab(dt_difo_t *dp, const char *s)
{
	size_t n = strlen(s) + 1;
	if (dp->strlen == 0) {
		dp->strtab = dt_grow(dp->pcb, dp->strtab, &dp->strcap, 1, 1);
		dp->strtab[0] = '\0';
		dp->strlen = 1;
	}
	if (s[0] == '\0')
		return 0;
	for (uint32_t off = 1; off < dp->strlen;) {
		if (strcmp(dp->strtab + off, s) == 0)
			return off;
		off += (uint32_t)strlen(dp->strtab + off) + 1;
	}
	if (dp->strlen + n > DIF_STROFF_MAX)
		dt_error(dp->pcb, 0, D_UNKNOWN, "string table overflow");
	dp->strtab = dt_grow(dp->pcb, dp->strtab, &dp->strcap, dp->strlen + (uint32_t)n, 1);
	memcpy(dp->strtab + dp->strlen, s, n);
	uint32_t off = dp->strlen;
	dp->strlen += (uint32_t)n;
	return off;
}

static bool
dt_type_signed(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t->kind != DT_TK_PTR && (t->issigned || t->kind == DT_TK_ENUM);
}

/* The load of `size' bytes (1, 2, 4 or 8), sign-extending or not, from the kernel's or a user's memory. */
static int
dt_load_op_size(uint64_t size, bool sg, bool user)
{
	int op;
	switch (size) {
	case 1: op = sg ? DIF_OP_LDSB : DIF_OP_LDUB; break;
	case 2: op = sg ? DIF_OP_LDSH : DIF_OP_LDUH; break;
	case 4: op = sg ? DIF_OP_LDSW : DIF_OP_LDUW; break;
	default: op = DIF_OP_LDX; break;
	}
	if (user)
		op = op - DIF_OP_LDSB + DIF_OP_ULDSB;
	return op;
}

static int
dt_load_op(dt_type_t *t, bool user)
{
	dt_type_t *r = dt_type_resolve(t);
	return dt_load_op_size(r->kind == DT_TK_PTR ? 8 : r->size, dt_type_signed(t), user);
}

static int
dt_store_op_size(uint64_t size)
{
	switch (size) {
	case 1: return DIF_OP_STB;
	case 2: return DIF_OP_STH;
	case 4: return DIF_OP_STW;
	default: return DIF_OP_STX;
	}
}

static int
dt_store_op(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return dt_store_op_size(t->kind == DT_TK_PTR ? 8 : t->size);
}

/*
 * Bit-fields, as DTrace's code generator reaches them (dt_cg_load,
 * dt_cg_field_get, dt_cg_field_set).  A field is not read through its
 * storage unit: its type has the field's width, and the memory touched is
 * that width rounded up to whole bytes and then to a power of two, at the
 * byte holding the field's first bit (its bit offset from the start of
 * the struct, divided by 8).  Within those bytes the field's low bit is
 * `lo' bits up: on a little-endian target the bit offset's remainder mod
 * 8; on a big-endian one, where bit offsets count from the most
 * significant end, what is left of the loaded bits after that remainder
 * and the width.  Note what follows from the rule, in DTrace as here: a
 * field whose remainder and width together exceed the bytes loaded loses
 * its high bits, and a load whose size does not divide the byte offset
 * faults with a bad alignment.
 *
 * A width of exactly 8, 16, 32 or 64 bits is not a bit-field to DTrace's
 * parser (dt_node_type_assign): it is loaded and stored whole, that many
 * bytes at the same byte offset, with no shift or mask.
 */
static const bool dt_cg_bigendian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

/* The bit offset of member m from the start of its struct (CTF's ctm_offset). */
static uint64_t
dt_member_bitpos(const dt_member_t *m)
{
	return m->off * 8 + (m->bits > 0 ? (uint64_t)m->bitoff : 0);
}

/* Bytes a bit-field of m's width is loaded and stored as: whole bytes, rounded up to a power of two. */
static uint64_t
dt_field_size(const dt_member_t *m)
{
	uint64_t n = ((uint64_t)m->bits + 7) / 8, p = 1;
	while (p < n)
		p *= 2;
	return p;
}

/* A member of whole 1, 2, 4 or 8 bytes' width: plain memory to DTrace. */
static bool
dt_field_whole(const dt_member_t *m)
{
	return m->bits % 8 == 0 && dt_field_size(m) * 8 == (uint64_t)m->bits;
}

/* Where the field's low bit lies in the value loaded by dt_field_size() bytes. */
static uint64_t
dt_field_lo(const dt_member_t *m)
{
	uint64_t r = dt_member_bitpos(m) % 8;
	if (dt_cg_bigendian)
		return dt_field_size(m) * 8 - r - (uint64_t)m->bits;
	return r;
}

/*
 * The size of a value of node n's type t (n may be NULL): an integer
 * bit-field's type is as wide as the field in DTrace, so its size is that
 * of its loads, which casts, records and -S's return types see.
 */
static uint64_t
dt_value_size(const dt_node_t *n, dt_type_t *t)
{
	const dt_member_t *m = dt_value_field(n);
	t = dt_type_resolve(t);
	if (m != NULL && t->kind == DT_TK_INT)
		return dt_field_size(m);
	return dt_type_is_pointer(t) ? 8 : t->size;
}

void
dt_node_diftype(dt_pcb_t *pcb, dt_node_t *n, dtrace_diftype_t *t)
{
	dt_type_t *r = dt_type_resolve(n->type);
	memset(t, 0, sizeof(*t));
	if (r == NULL || r->kind == DT_TK_DYN) {
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = CTF_K_INTEGER;
		t->dtdt_size = 8;
		return;
	}
	switch (r->kind) {
	case DT_TK_STRING:
		t->dtdt_kind = DIF_TYPE_STRING;
		t->dtdt_flags = DIF_TF_BYREF;
		t->dtdt_size = pcb->strsize;
		return;
	case DT_TK_VOID:
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = CTF_K_INTEGER;
		t->dtdt_size = 0;
		return;
	case DT_TK_PTR:
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = CTF_K_POINTER;
		t->dtdt_size = 8;
		return;
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_ARRAY:
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = r->kind == DT_TK_STRUCT ? CTF_K_STRUCT : r->kind == DT_TK_UNION ? CTF_K_UNION : CTF_K_ARRAY;
		t->dtdt_flags = (n->flags & DT_NF_USERLAND) ? DIF_TF_BYUREF : DIF_TF_BYREF;
		t->dtdt_size = (uint32_t)r->size;
		return;
	case DT_TK_ENUM:
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = CTF_K_ENUM;
		t->dtdt_size = 4;
		return;
	default:
		t->dtdt_kind = DIF_TYPE_CTF;
		t->dtdt_ckind = CTF_K_INTEGER;
		t->dtdt_size = (uint32_t)dt_value_size(n, n->type);
		return;
	}
}

static void
dt_vartab(dt_difo_t *dp, dt_ident_t *idp, uint8_t scope, uint8_t kind, uint16_t flag)
{
	for (uint32_t i = 0; i < dp->varlen; i++) {
		dtrace_difv_t *v = &dp->vartab[i];
		if (v->dtdv_id == idp->id && v->dtdv_scope == scope) {
			v->dtdv_flags |= flag;
			return;
		}
	}
	uint32_t cap = dp->varcap;
	dp->vartab = dt_grow(dp->pcb, dp->vartab, &dp->varcap, dp->varlen + 1, sizeof(dtrace_difv_t));
	dp->varids = dt_grow(dp->pcb, dp->varids, &cap, dp->varlen + 1, sizeof(dt_ident_t *));
	dp->varids[dp->varlen] = idp;
	dtrace_difv_t *v = &dp->vartab[dp->varlen++];
	dt_node_t tmp;
	memset(&tmp, 0, sizeof(tmp));
	/* built-in arrays (args[], uregs[]) are typed per probe: their entry says int64_t */
	bool barr = (idp->flags & DT_IDFLG_BUILTIN) && idp->kind == DT_IDENT_ARRAY;
	tmp.type = idp->type != NULL && !barr ? idp->type : dp->pcb->t_int64;
	memset(v, 0, sizeof(*v));
	v->dtdv_id = idp->id;
	v->dtdv_kind = kind;
	v->dtdv_scope = scope;
	v->dtdv_flags = flag;
	dt_node_diftype(dp->pcb, &tmp, &v->dtdv_type);
}

/*
 * DTrace's assembler fills the variable table by walking its identifier
 * hashes (thread-locals, then globals, then clause-locals), each bucket by
 * bucket (ELF hash of the name modulo 211 buckets, on a 64-bit ulong) and
 * each bucket's chain newest first; the names then go into the string table
 * after every string the code uses.  The same order here, so the table and
 * the string offsets read as DTrace's.
 */
static uint64_t
dt_var_bucket(const char *name)
{
	uint64_t h = 0, g;
	for (const char *p = name; *p != '\0'; p++) {
		h = (h << 4) + (uint64_t)(int64_t)(signed char)*p;
		if ((g = (h & 0xf0000000)) != 0) {
			h ^= (g >> 24);
			h ^= g;
		}
	}
	return h % 211;
}

static uint64_t
dt_var_order(const dtrace_difv_t *v, const dt_ident_t *idp)
{
	uint64_t group = v->dtdv_scope == DIFV_SCOPE_THREAD ? 0 : v->dtdv_scope == DIFV_SCOPE_GLOBAL ? 1 : 2;
	/* newest first within a bucket: D's variables after the built-ins, higher ids later */
	uint64_t age = (idp->flags & DT_IDFLG_BUILTIN ? 0 : 0x100000) + idp->id;
	return group << 40 | dt_var_bucket(idp->name) << 24 | (0xffffff - (age & 0xffffff));
}

static void
dt_vartab_finish(dt_difo_t *dp)
{
	for (uint32_t i = 1; i < dp->varlen; i++) {
		for (uint32_t j = i; j > 0; j--) {
			if (dt_var_order(&dp->vartab[j - 1], dp->varids[j - 1]) <=
			    dt_var_order(&dp->vartab[j], dp->varids[j]))
				break;
			dtrace_difv_t tv = dp->vartab[j];
			const dt_ident_t *ti = dp->varids[j];
			dp->vartab[j] = dp->vartab[j - 1];
			dp->varids[j] = dp->varids[j - 1];
			dp->vartab[j - 1] = tv;
			dp->varids[j - 1] = ti;
		}
	}
	for (uint32_t i = 0; i < dp->varlen; i++)
		dp->vartab[i].dtdv_name = dt_strtab(dp, dp->varids[i]->name);
}

static void
dt_setx(dt_difo_t *dp, int reg, uint64_t v)
{
	dt_emit(dp, DIF_INSTR_SETX(dt_inttab(dp, v), reg));
}

/* ---- expressions ------------------------------------------------------------ */

static int dt_cg(dt_difo_t *dp, dt_node_t *n);

static uint8_t
dt_var_scope(dt_ident_t *idp)
{
	if (idp->flags & DT_IDFLG_TLS)
		return DIFV_SCOPE_THREAD;
	if (idp->flags & DT_IDFLG_LOCAL)
		return DIFV_SCOPE_LOCAL;
	return DIFV_SCOPE_GLOBAL;
}

/*
 * DTrace's dt_cg_typecast: a scalar converted to a narrower type or one of
 * other signedness is shifted to the top of the register and back down
 * (arithmetic for signed results); a signed value widened is sign-extended
 * from its own size.  Everything else needs no code.  sn and dn, the nodes
 * of the value and of the result when there are any, give bit-fields
 * their own sizes (dt_value_size).
 */
static void
dt_cg_typecast(dt_difo_t *dp, const dt_node_t *sn, dt_type_t *src, const dt_node_t *dn, dt_type_t *dst, int reg)
{
	dt_type_t *s = dt_type_resolve(src), *d = dt_type_resolve(dst);
	if (s == NULL || d == NULL || !dt_type_is_scalar(d) || !dt_type_is_scalar(s))
		return;
	uint64_t ds = dt_value_size(dn, dst), ss = dt_value_size(sn, src);
	bool dsg = !dt_type_is_pointer(d) && (d->issigned || d->kind == DT_TK_ENUM);
	bool ssg = !dt_type_is_pointer(s) && (s->issigned || s->kind == DT_TK_ENUM);
	if (ds == 0 || ss == 0 || ds > 8 || ss > 8)
		return;
	if (ds == ss && dsg == ssg)
		return;
	if (ds > ss && !ssg)
		return;
	int r = dt_reg_alloc(dp);
	if (ds > ss) {
		uint64_t n = 64 - ss * 8, sh = (ds - ss) * 8;
		dt_setx(dp, r, n);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SLL, reg, r, reg));
		if (dsg || n == sh) {
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SRA, reg, r, reg));
		} else {
			dt_setx(dp, r, sh);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SRA, reg, r, reg));
			dt_setx(dp, r, n - sh);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SRL, reg, r, reg));
		}
	} else if (ds != 8) {
		dt_setx(dp, r, 64 - ds * 8);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SLL, reg, r, reg));
		dt_emit(dp, DIF_INSTR_FMT(dsg ? DIF_OP_SRA : DIF_OP_SRL, reg, r, reg));
	}
	dt_reg_free(dp, r);
}

/*
 * Push a list of values on the tuple stack, as DTrace's dt_cg_arglist: every
 * value computed first, then each pushed, by-reference ones (strings too)
 * with their size in a register.  More than DIF_DTR_NREGS values fail the
 * way DTrace's EDT_NOTUPREG does: its message alone, no region or line.
 */
static void
dt_cg_arglist(dt_difo_t *dp, dt_node_t *args, dt_type_t *const *sig, int nsig)
{
	int n = 0, nargs = 0;
	dt_node_t *a;
	for (a = args; a != NULL; a = a->list)
		nargs++;
	int *regs = dt_zalloc(dp->pcb, sizeof(int) * (size_t)(nargs + 1));
	for (a = args; a != NULL; a = a->list) {
		if (n >= dp->pcb->tregs) {
			dt_pcb_t *pcb = dp->pcb;
			pcb->region = NULL;
			pcb->filetag = NULL;
			pcb->fromfile = false;
			dt_error(pcb, 0, D_UNKNOWN, "Insufficient tuple registers to generate code");
		}
		regs[n++] = dt_cg(dp, a);
	}
	dt_emit(dp, DIF_INSTR_FLUSHTS);
	n = 0;
	for (a = args; a != NULL; a = a->list) {
		dtrace_diftype_t t;
		/* each value converted to its signature's type, as DTrace does, then pushed */
		if (n < nsig && sig[n] != NULL)
			dt_cg_typecast(dp, a, a->type, NULL, sig[n], regs[n]);
		dt_node_diftype(dp->pcb, a, &t);
		if (t.dtdt_flags & (DIF_TF_BYREF | DIF_TF_BYUREF)) {
			int sz = 0;
			if (t.dtdt_size != 0) {
				sz = dt_reg_alloc(dp);
				dt_setx(dp, sz, t.dtdt_size);
			}
			dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, t.dtdt_kind, sz, regs[n]));
			dt_reg_free(dp, sz);
		} else {
			dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, t.dtdt_kind, 0, regs[n]));
		}
		dt_reg_free(dp, regs[n]);
		n++;
	}
}

static int
dt_cg_var_load(dt_difo_t *dp, dt_node_t *n)
{
	dt_ident_t *idp = n->ident;
	int rd;

	if (idp->flags & DT_IDFLG_XLARG) {
		/* a translator's parameter: the translated value, computed once by the xlate */
		if (!(idp->flags & DT_IDFLG_CGREG))
			dt_error(dp->pcb, n->line, D_UNKNOWN, "internal error: translator input %s unbound",
				 idp->name);
		rd = dt_reg_alloc(dp);
		dt_emit(dp, DIF_INSTR_MOV((int)idp->id, rd));
		return rd;
	}
	if (idp->flags & DT_IDFLG_BUILTIN) {
		if (idp->kind == DT_IDENT_ARRAY) {
			int ri = dt_cg(dp, n->args);
			rd = ri;
			dt_emit(dp, DIF_INSTR_LDA(DIF_OP_LDGA, idp->id, ri, rd));
			dt_vartab(dp, idp, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIFV_F_REF);
			dt_cg_typecast(dp, NULL, dp->pcb->t_int64, NULL, n->type, rd);
			return rd;
		}
		rd = dt_reg_alloc(dp);
		dt_emit(dp, DIF_INSTR_LDV(DIF_OP_LDGS, idp->id, rd));
		/* DTrace names the built-ins a DIFO reads in its variable table too */
		dt_vartab(dp, idp, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIFV_F_REF);
		return rd;
	}
	uint8_t scope = dt_var_scope(idp);
	if (idp->kind == DT_IDENT_ARRAY) {
		dt_cg_arglist(dp, n->args, idp->keys, idp->keys != NULL ? idp->nkeys : 0);
		rd = dt_reg_alloc(dp);
		int ldop = scope == DIFV_SCOPE_THREAD ? DIF_OP_LDTAA : DIF_OP_LDGAA;
		dt_emit(dp, DIF_INSTR_LDV(ldop, idp->id, rd));
		dt_vartab(dp, idp, scope, DIFV_KIND_ARRAY, DIFV_F_REF);
		if (n->flags & DT_NF_REF) {
			/*
			 * DTrace's epilogue for a by-reference element (a string,
			 * a struct): one not there yet is created zero-filled from
			 * alloca'd scratch, stored with the keys still on the tuple
			 * stack and loaded again, so its address is never 0.
			 */
			dt_type_t *t = dt_type_resolve(n->type);
			uint32_t have = dt_label(dp);
			dt_emit(dp, DIF_INSTR_TST(rd));
			dt_branch(dp, DIF_OP_BNE, have);
			dt_setx(dp, rd, t->kind == DT_TK_STRING ? dp->pcb->strsize : t->size);
			dt_emit(dp, DIF_INSTR_ALLOCS(rd, rd));
			dt_emit(dp, DIF_INSTR_STV(ldop == DIF_OP_LDTAA ? DIF_OP_STTAA : DIF_OP_STGAA, idp->id, rd));
			dt_vartab(dp, idp, scope, DIFV_KIND_ARRAY, DIFV_F_MOD);
			dt_emit(dp, DIF_INSTR_LDV(ldop, idp->id, rd));
			dt_label_here(dp, have);
		}
		return rd;
	}
	rd = dt_reg_alloc(dp);
	int op = scope == DIFV_SCOPE_THREAD ? DIF_OP_LDTS : scope == DIFV_SCOPE_LOCAL ? DIF_OP_LDLS : DIF_OP_LDGS;
	dt_emit(dp, DIF_INSTR_LDV(op, idp->id, rd));
	dt_vartab(dp, idp, scope, DIFV_KIND_SCALAR, DIFV_F_REF);
	return rd;
}

/* Store register rs into variable node n (keys evaluated here). */
static void
dt_cg_var_store(dt_difo_t *dp, dt_node_t *n, int rs)
{
	dt_ident_t *idp = n->ident;
	uint8_t scope = dt_var_scope(idp);
	if (idp->kind == DT_IDENT_ARRAY) {
		dt_cg_arglist(dp, n->args, idp->keys, idp->keys != NULL ? idp->nkeys : 0);
		dt_emit(dp, DIF_INSTR_STV(scope == DIFV_SCOPE_THREAD ? DIF_OP_STTAA : DIF_OP_STGAA, idp->id, rs));
		dt_vartab(dp, idp, scope, DIFV_KIND_ARRAY, DIFV_F_MOD);
		return;
	}
	int op = scope == DIFV_SCOPE_THREAD ? DIF_OP_STTS : scope == DIFV_SCOPE_LOCAL ? DIF_OP_STLS : DIF_OP_STGS;
	dt_emit(dp, DIF_INSTR_STV(op, idp->id, rs));
	dt_vartab(dp, idp, scope, DIFV_KIND_SCALAR, DIFV_F_MOD);
}

static int dt_cg_xlate_member(dt_difo_t *dp, dt_node_t *n);

/* Address of an lvalue in memory (deref, member). */
static int
dt_cg_addr(dt_difo_t *dp, dt_node_t *n)
{
	if (n->kind == DT_NODE_OP1 && n->op == DT_TOK_DEREF)
		return dt_cg(dp, n->left);
	if (n->kind == DT_NODE_OP2 && (n->op == DT_TOK_PTR || n->op == DT_TOK_DOT) &&
	    dt_node_xlator(n->left) != NULL) {
		/* a translated struct or array member is a value made in scratch: its address */
		if (n->flags & DT_NF_REF)
			return dt_cg_xlate_member(dp, n);
		dt_error(dp->pcb, n->line, D_UNKNOWN, "a translated member has no address");
	}
	if (n->kind == DT_NODE_OP2 && (n->op == DT_TOK_PTR || n->op == DT_TOK_DOT)) {
		int r = n->op == DT_TOK_PTR ? dt_cg(dp, n->left) : dt_cg_addr(dp, n->left);
		/* a bit-field's byte, added even when that is byte 0 of a field at bits 1-7 */
		uint64_t pos = dt_member_bitpos(n->member);
		if (pos != 0) {
			int t = dt_reg_alloc(dp);
			dt_setx(dp, t, pos / 8);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_ADD, r, t, r));
			dt_reg_free(dp, t);
		}
		return r;
	}
	/* by-reference values are their own address */
	return dt_cg(dp, n);
}

/*
 * Read bit-field m into r, which holds the address of its first byte: the
 * field's bytes loaded (signed or not as its type), then, unless the width
 * is whole bytes, the field moved to the low end of r: a signed one shifted
 * up until its top bit is bit 63 and arithmetically down to its width, an
 * unsigned one shifted down to bit 0 and masked.
 */
static void
dt_cg_field_get(dt_difo_t *dp, const dt_member_t *m, bool sg, bool user, int r)
{
	dt_emit(dp, DIF_INSTR_LOAD(dt_load_op_size(dt_field_size(m), sg, user), r, r));
	if (dt_field_whole(m))
		return;
	uint64_t bits = (uint64_t)m->bits, lo = dt_field_lo(m);
	int k = dt_reg_alloc(dp);
	if (sg) {
		dt_setx(dp, k, 64 - (lo + bits));
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SLL, r, k, r));
		dt_setx(dp, k, 64 - bits);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SRA, r, k, r));
	} else {
		dt_setx(dp, k, lo);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SRL, r, k, r));
		dt_setx(dp, k, (1ULL << bits) - 1);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_AND, r, k, r));
	}
	dt_reg_free(dp, k);
}

static void
dt_cg_load_value_as(dt_difo_t *dp, dt_node_t *n, int r, bool user)
{
	dt_type_t *t = dt_type_resolve(n->type);
	if (n->flags & DT_NF_REF)
		return; /* structs, arrays, strings stay addresses */
	if (t->kind == DT_TK_FUNC)
		return;
	dt_member_t *m = dt_node_field(n);
	if (m != NULL)
		dt_cg_field_get(dp, m, dt_type_signed(n->type), user, r);
	else
		dt_emit(dp, DIF_INSTR_LOAD(dt_load_op(n->type, user), r, r));
}

static void
dt_cg_load_value(dt_difo_t *dp, dt_node_t *n, int r)
{
	dt_cg_load_value_as(dp, n, r, (n->flags & DT_NF_USERLAND) != 0);
}

/*
 * DTrace's dt_cg_compare_signed, through its dt_type_promote: strings
 * compare signed, anything not arithmetic (pointers) unsigned; of two
 * integers the one of higher rank (dt_node_rank) decides.  Nothing is
 * promoted to int first, so unsigned char against char compares
 * unsigned, and a bit-field ranks by its own width: a 3-bit unsigned
 * field against an int compares signed.
 */
static bool
dt_cg_compare_signed(dt_node_t *l, dt_node_t *r)
{
	dt_type_t *lt = dt_type_resolve(l->type), *rt = dt_type_resolve(r->type);
	if (!dt_type_is_arith(lt) || !dt_type_is_arith(rt))
		return false;
	bool lsg, rsg;
	uint64_t lr = dt_node_rank(l, &lsg), rr = dt_node_rank(r, &rsg);
	if (lr == rr)
		return lsg && rsg;
	return lr > rr ? lsg : rsg;
}

static int
dt_cg_compare(dt_difo_t *dp, dt_node_t *n)
{
	dt_node_t *l = n->left, *r = n->right;
	int rl = dt_cg(dp, l), rr = dt_cg(dp, r);
	bool str = dt_node_is_string(l) || dt_node_is_string(r);
	bool sg = dt_cg_compare_signed(l, r);
	int op;
	dt_emit(dp, DIF_INSTR_CMP(str ? DIF_OP_SCMP : DIF_OP_CMP, rl, rr));
	dt_reg_free(dp, rr);
	switch (n->op) {
	case DT_TOK_EQU: op = DIF_OP_BE; break;
	case DT_TOK_NEQ: op = DIF_OP_BNE; break;
	case DT_TOK_LT: op = sg || str ? DIF_OP_BL : DIF_OP_BLU; break;
	case DT_TOK_LE: op = sg || str ? DIF_OP_BLE : DIF_OP_BLEU; break;
	case DT_TOK_GT: op = sg || str ? DIF_OP_BG : DIF_OP_BGU; break;
	default: op = sg || str ? DIF_OP_BGE : DIF_OP_BGEU; break;
	}
	uint32_t lt = dt_label(dp), lpost = dt_label(dp);
	dt_branch(dp, op, lt);
	dt_emit(dp, DIF_INSTR_MOV(DIF_REG_R0, rl));
	dt_branch(dp, DIF_OP_BA, lpost);
	dt_label_here(dp, lt);
	dt_setx(dp, rl, 1);
	dt_label_here(dp, lpost);
	return rl;
}

static int
dt_cg_logical(dt_difo_t *dp, dt_node_t *n)
{
	uint32_t lfalse = dt_label(dp), ltrue = dt_label(dp), lpost = dt_label(dp);
	int rl, rr;

	if (n->op == DT_TOK_LXOR) {
		/* as DTrace: each side made 0/1 right after it is computed, then xor */
		uint32_t lnext = dt_label(dp), ltail = dt_label(dp);
		rl = dt_cg(dp, n->left);
		dt_emit(dp, DIF_INSTR_TST(rl));
		dt_branch(dp, DIF_OP_BE, lnext);
		dt_setx(dp, rl, 1);
		dt_label_here(dp, lnext);
		rr = dt_cg(dp, n->right);
		dt_emit(dp, DIF_INSTR_TST(rr));
		dt_branch(dp, DIF_OP_BE, ltail);
		dt_setx(dp, rr, 1);
		dt_label_here(dp, ltail);
		dt_emit(dp, DIF_INSTR_FMT(DIF_OP_XOR, rl, rr, rl));
		dt_reg_free(dp, rr);
		return rl;
	}
	rl = dt_cg(dp, n->left);
	dt_emit(dp, DIF_INSTR_TST(rl));
	dt_branch(dp, n->op == DT_TOK_LAND ? DIF_OP_BE : DIF_OP_BNE, n->op == DT_TOK_LAND ? lfalse : ltrue);
	dt_reg_free(dp, rl);
	rr = dt_cg(dp, n->right);
	dt_emit(dp, DIF_INSTR_TST(rr));
	dt_branch(dp, DIF_OP_BE, lfalse);
	dt_label_here(dp, ltrue);
	dt_setx(dp, rr, 1);
	dt_branch(dp, DIF_OP_BA, lpost);
	dt_label_here(dp, lfalse);
	dt_emit(dp, DIF_INSTR_MOV(DIF_REG_R0, rr));
	dt_label_here(dp, lpost);
	return rr;
}

static int
dt_arith_op(int tok, bool sg)
{
	switch (tok) {
	case DT_TOK_ADD: case DT_TOK_ADD_EQ: case DT_TOK_PREINC: case DT_TOK_POSTINC: return DIF_OP_ADD;
	case DT_TOK_SUB: case DT_TOK_SUB_EQ: case DT_TOK_PREDEC: case DT_TOK_POSTDEC: return DIF_OP_SUB;
	case DT_TOK_MUL: case DT_TOK_MUL_EQ: return DIF_OP_MUL;
	case DT_TOK_DIV: case DT_TOK_DIV_EQ: return sg ? DIF_OP_SDIV : DIF_OP_UDIV;
	case DT_TOK_MOD: case DT_TOK_MOD_EQ: return sg ? DIF_OP_SREM : DIF_OP_UREM;
	case DT_TOK_BAND: case DT_TOK_AND_EQ: return DIF_OP_AND;
	case DT_TOK_BOR: case DT_TOK_OR_EQ: return DIF_OP_OR;
	case DT_TOK_XOR: case DT_TOK_XOR_EQ: return DIF_OP_XOR;
	case DT_TOK_LSH: case DT_TOK_LSH_EQ: return DIF_OP_SLL;
	case DT_TOK_RSH: case DT_TOK_RSH_EQ: return sg ? DIF_OP_SRA : DIF_OP_SRL;
	}
	return DIF_OP_NOP;
}

/* Size to scale an integer by when it is added to a pointer of this type. */
static uint64_t
dt_ptr_scale(dt_type_t *t)
{
	t = dt_type_resolve(t);
	if (t == NULL || (t->kind != DT_TK_PTR && t->kind != DT_TK_ARRAY))
		return 1;
	dt_type_t *r = dt_type_resolve(t->ref);
	return r == NULL || r->size == 0 ? 1 : r->size;
}

static void
dt_cg_scale(dt_difo_t *dp, int reg, uint64_t scale)
{
	if (scale <= 1)
		return;
	int t = dt_reg_alloc(dp);
	dt_setx(dp, t, scale);
	dt_emit(dp, DIF_INSTR_FMT(DIF_OP_MUL, reg, t, reg));
	dt_reg_free(dp, t);
}

/*
 * Arithmetic as DTrace's dt_cg_arithmetic_op: in 64 bits with no narrowing
 * afterwards (D narrows only in casts, stores to memory and records); the
 * integer side of pointer +/- is scaled as soon as it is computed, and a
 * pointer difference is divided (unsigned) by the pointed-to size.
 */
static int
dt_cg_arith(dt_difo_t *dp, dt_node_t *n, dt_node_t *l, dt_node_t *r, int op, int rl)
{
	bool ptrop = n->op == DT_TOK_ADD || n->op == DT_TOK_SUB || n->op == DT_TOK_ADD_EQ ||
		     n->op == DT_TOK_SUB_EQ;
	bool lp = dt_type_is_pointer(l->type), rp = dt_type_is_pointer(r->type);
	if (lp && rp)
		ptrop = false;
	if (rl < 0)
		rl = dt_cg(dp, l);
	if (ptrop && rp)
		dt_cg_scale(dp, rl, dt_ptr_scale(r->type));
	int rr = dt_cg(dp, r);
	if (ptrop && lp)
		dt_cg_scale(dp, rr, dt_ptr_scale(l->type));
	dt_emit(dp, DIF_INSTR_FMT(op, rl, rr, rl));
	dt_reg_free(dp, rr);
	if (lp && rp) {
		uint64_t sz = dt_ptr_scale(r->type);
		if (sz > 1) {
			int t = dt_reg_alloc(dp);
			dt_setx(dp, t, sz);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_UDIV, rl, t, rl));
			dt_reg_free(dp, t);
		}
	}
	return rl;
}

static int
dt_cg_binary(dt_difo_t *dp, dt_node_t *n)
{
	bool sg = (n->flags & DT_NF_SIGNED) != 0;
	if (n->op == DT_TOK_RSH)
		sg = (n->left->flags & DT_NF_SIGNED) != 0;
	return dt_cg_arith(dp, n, n->left, n->right, dt_arith_op(n->op, sg), -1);
}

/*
 * Store rs into bit-field m whose first byte is at address ra, as DTrace's
 * dt_cg_field_set and dt_cg_store: the field's bytes are loaded, the
 * field's bits in them cleared, the value's low bits shifted into place
 * and or-ed in, and the bytes stored back, so the neighbours keep their
 * bits.  A field of whole bytes is stored as they are.
 */
static void
dt_cg_field_store(dt_difo_t *dp, const dt_member_t *m, bool sg, bool user, int rs, int ra)
{
	uint64_t size = dt_field_size(m);
	if (dt_field_whole(m)) {
		dt_emit(dp, DIF_INSTR_STORE(dt_store_op_size(size), rs, ra));
		return;
	}
	uint64_t fmask = (1ULL << m->bits) - 1, lo = dt_field_lo(m);
	int u = dt_reg_alloc(dp), k = dt_reg_alloc(dp), s = dt_reg_alloc(dp);

	dt_emit(dp, DIF_INSTR_LOAD(dt_load_op_size(size, sg, user), ra, u));
	dt_setx(dp, k, ~(fmask << lo));
	dt_emit(dp, DIF_INSTR_FMT(DIF_OP_AND, u, k, u));
	dt_setx(dp, k, fmask);
	dt_emit(dp, DIF_INSTR_FMT(DIF_OP_AND, rs, k, k));
	dt_setx(dp, s, lo);
	dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SLL, k, s, k));
	dt_emit(dp, DIF_INSTR_FMT(DIF_OP_OR, u, k, u));
	dt_reg_free(dp, s);
	dt_reg_free(dp, k);
	dt_emit(dp, DIF_INSTR_STORE(dt_store_op_size(size), u, ra));
	dt_reg_free(dp, u);
}

/* Store rs into lvalue l (a variable, or memory whose address is computed now). */
static void
dt_cg_store_lvalue(dt_difo_t *dp, dt_node_t *l, int rs)
{
	if (l->kind == DT_NODE_VAR) {
		dt_cg_var_store(dp, l, rs);
		return;
	}
	int ra = dt_cg_addr(dp, l);
	dt_type_t *t = dt_type_resolve(l->type);
	dt_member_t *m = dt_node_field(l);
	if (m != NULL) {
		dt_cg_field_store(dp, m, dt_type_signed(l->type), (l->flags & DT_NF_USERLAND) != 0, rs, ra);
	} else if (l->flags & DT_NF_REF) {
		int sz = dt_reg_alloc(dp);
		dt_setx(dp, sz, t->kind == DT_TK_STRING ? dp->pcb->strsize : t->size);
		dt_emit(dp, DIF_INSTR_COPYS(rs, sz, ra));
		dt_reg_free(dp, sz);
	} else {
		dt_emit(dp, DIF_INSTR_STORE(dt_store_op(l->type), rs, ra));
	}
	dt_reg_free(dp, ra);
}

/*
 * Assignments as DTrace's dt_cg_asgn_op: the value (for l op= r, l's value
 * op r, computed as the arithmetic operator) is stored as it is, and the
 * assignment's value is that register.
 */
static int
dt_cg_assign(dt_difo_t *dp, dt_node_t *n)
{
	dt_node_t *l = n->left;
	int rs;

	if (n->op == DT_TOK_ASGN)
		rs = dt_cg(dp, n->right);
	else
		rs = dt_cg_arith(dp, n, l, n->right, dt_arith_op(n->op, (l->flags & DT_NF_SIGNED) != 0), -1);
	dt_cg_store_lvalue(dp, l, rs);
	return rs;
}

/*
 * ++ and -- as DTrace's dt_cg_prearith_op / dt_cg_postarith_op: the value
 * is loaded, the step (the pointed-to size for pointers) added in place for
 * the prefix forms or into a second register for the postfix ones, and the
 * new value stored back; postfix forms keep the old value.
 */
static int
dt_cg_incdec(dt_difo_t *dp, dt_node_t *n)
{
	dt_node_t *l = n->left;
	bool post = n->op == DT_TOK_POSTINC || n->op == DT_TOK_POSTDEC;
	int op = dt_arith_op(n->op, false);
	int rv = dt_cg(dp, l);
	int step = dt_reg_alloc(dp);

	dt_setx(dp, step, dt_ptr_scale(l->type));
	if (post) {
		dt_emit(dp, DIF_INSTR_FMT(op, rv, step, step));
		dt_cg_store_lvalue(dp, l, step);
	} else {
		dt_emit(dp, DIF_INSTR_FMT(op, rv, step, rv));
		dt_reg_free(dp, step);
		step = -1;
		dt_cg_store_lvalue(dp, l, rv);
	}
	dt_reg_free(dp, step);
	return rv;
}

static int
dt_cg_call(dt_difo_t *dp, dt_node_t *n)
{
	dt_ident_t *idp = n->ident;
	if (idp->kind != DT_IDENT_FUNC)
		dt_error(dp->pcb, n->line, D_CG_EXPR,
			 "%s %s( ) may not be called from a D expression (D program context required)",
			 dt_idkind_name(idp->kind), idp->name);
	if (n->args != NULL) {
		/* the prototype's scalar types ("size_t", "?int", "void *"): the casts DTrace makes */
		dt_type_t *sig[DIF_DTR_NREGS + 1];
		int nsig = 0;
		const char *p = idp->proto;
		while (p != NULL && *p != '\0' && nsig <= DIF_DTR_NREGS) {
			const char *e = strchr(p, ',');
			size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
			char name[64];
			if (*p == '?') {
				p++;
				len--;
			}
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			sig[nsig] = len > 0 && name[len - 1] == '*' ? dp->pcb->t_uint64
				    : len < sizeof(name) ? dt_type_lookup(dp->pcb, name) : NULL;
			nsig++;
			p = e != NULL ? e + 1 : NULL;
		}
		dt_cg_arglist(dp, n->args, sig, nsig);
	}
	int rd = dt_reg_alloc(dp);
	dt_emit(dp, DIF_INSTR_CALL(idp->id, rd));
	return rd;
}

/* ---- translators: member expressions evaluated with the parameter in a register ---- */

/* The translated value of a translated expression (xlate<T>(e), xlate<T *>(e), *xlate<T *>(e)). */
static dt_node_t *
dt_cg_xlate_input(dt_node_t *x)
{
	return x->kind == DT_NODE_OP1 ? x->left->right : x->right;
}

/* Evaluate translator member definition e with the translator's parameter in register rin. */
static int
dt_cg_xlate_eval(dt_difo_t *dp, dt_ident_t *xl, dt_node_t *e, int rin)
{
	dt_ident_t *arg = xl->xlarg;
	uint32_t oflags = arg->flags, oid = arg->id;
	int r;

	arg->flags |= DT_IDFLG_CGREG;
	arg->id = (uint32_t)rin;
	r = dt_cg(dp, e);
	arg->flags = oflags;
	arg->id = oid;
	return r;
}

/* xlate<T *>(e)->m, xlate<T>(e).m: the member's definition, converted to the member's type. */
static int
dt_cg_xlate_member(dt_difo_t *dp, dt_node_t *n)
{
	dt_node_t *x = n->left;
	int rin = dt_cg(dp, dt_cg_xlate_input(x));
	int r = dt_cg_xlate_eval(dp, x->ident, n->args, rin);

	dt_reg_free(dp, rin);
	if (!(n->flags & DT_NF_REF))
		dt_cg_typecast(dp, n->args, n->args->type, n, n->type, r);
	return r;
}

/*
 * The whole translated struct: a zeroed buffer from alloca() with every
 * member the translator defines stored at its offset (strings copied up to
 * the member's size, structs and arrays with bcopy()), as DTrace expands
 * *xlate<T *>(e).
 */
static int
dt_cg_xlate_expand(dt_difo_t *dp, dt_node_t *x)
{
	dt_ident_t *xl = x->ident;
	dt_type_t *sou = dt_type_resolve(xl->type);
	int rin = dt_cg(dp, dt_cg_xlate_input(x));
	int rd = dt_reg_alloc(dp);

	dt_setx(dp, rd, sou->size);
	dt_emit(dp, DIF_INSTR_FLUSHTS);
	dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, rd));
	dt_emit(dp, DIF_INSTR_CALL(DIF_SUBR_ALLOCA, rd));
	for (dt_member_t *m = sou->members; m != NULL; m = m->next) {
		dt_node_t *def = m->name != NULL ? dt_xlator_member(xl, m->name) : NULL;
		if (def == NULL)
			continue;
		dt_decl_xlate_use(dp->pcb, x, def);
		dt_node_t *e = dt_node_copy_list(dp->pcb, def->left);
		dt_type_t *mt = dt_type_resolve(m->type);
		int rv = dt_cg_xlate_eval(dp, xl, e, rin);
		int ra = dt_reg_alloc(dp);
		dt_emit(dp, DIF_INSTR_MOV(rd, ra));
		uint64_t pos = dt_member_bitpos(m);
		if (pos != 0) {
			int k = dt_reg_alloc(dp);
			dt_setx(dp, k, pos / 8);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_ADD, ra, k, ra));
			dt_reg_free(dp, k);
		}
		if (m->bits > 0) {
			dt_cg_field_store(dp, m, dt_type_signed(m->type), false, rv, ra);
		} else if (mt->kind == DT_TK_STRING || (mt->kind == DT_TK_ARRAY && dt_node_is_string(e))) {
			int sz = dt_reg_alloc(dp);
			dt_setx(dp, sz, mt->kind == DT_TK_STRING ? dp->pcb->strsize : mt->size);
			dt_emit(dp, DIF_INSTR_COPYS(rv, sz, ra));
			dt_reg_free(dp, sz);
		} else if (mt->kind == DT_TK_STRUCT || mt->kind == DT_TK_UNION || mt->kind == DT_TK_ARRAY) {
			int sz = dt_reg_alloc(dp);
			dt_setx(dp, sz, mt->size);
			dt_emit(dp, DIF_INSTR_FLUSHTS);
			dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, rv));
			dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, ra));
			dt_emit(dp, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, sz));
			dt_emit(dp, DIF_INSTR_CALL(DIF_SUBR_BCOPY, sz));
			dt_reg_free(dp, sz);
		} else {
			dt_cg_typecast(dp, e, e->type, NULL, m->type, rv);
			dt_emit(dp, DIF_INSTR_STORE(dt_store_op(m->type), rv, ra));
		}
		dt_reg_free(dp, ra);
		dt_reg_free(dp, rv);
	}
	dt_reg_free(dp, rin);
	return rd;
}

static int
dt_cg(dt_difo_t *dp, dt_node_t *n)
{
	int r;
	switch (n->kind) {
	case DT_NODE_INT:
		r = dt_reg_alloc(dp);
		dt_setx(dp, r, n->value);
		return r;
	case DT_NODE_STRING:
		r = dt_reg_alloc(dp);
		dt_emit(dp, DIF_INSTR_SETS(dt_strtab(dp, n->string), r));
		return r;
	case DT_NODE_VAR:
		return dt_cg_var_load(dp, n);
	case DT_NODE_FUNC:
		return dt_cg_call(dp, n);
	case DT_NODE_AGG:
		dt_error(dp->pcb, n->line, D_CG_EXPR,
			 "aggregating function may not be used in a D expression (D program context required)");
	case DT_NODE_OP3: {
		/*
		 * DTrace's order: the true arm ends with a mov into the result
		 * register (patched once the false arm has chosen it, even when
		 * it is the same register).
		 */
		uint32_t lfalse = dt_label(dp), lpost = dt_label(dp);
		int rc = dt_cg(dp, n->cond);
		dt_emit(dp, DIF_INSTR_TST(rc));
		dt_reg_free(dp, rc);
		dt_branch(dp, DIF_OP_BE, lfalse);
		int rl = dt_cg(dp, n->left);
		uint32_t mov = dt_emit(dp, DIF_INSTR_MOV(rl, DIF_REG_R0));
		dt_reg_free(dp, rl);
		dt_branch(dp, DIF_OP_BA, lpost);
		dt_label_here(dp, lfalse);
		int rr = dt_cg(dp, n->right);
		dp->buf[mov] = DIF_INSTR_MOV(rl, rr);
		dt_label_here(dp, lpost);
		return rr;
	}
	case DT_NODE_OP1:
		switch (n->op) {
		case DT_TOK_DEREF:
			if (dt_node_xlator(n) != NULL)
				return dt_cg_xlate_expand(dp, n);
			r = dt_cg(dp, n->left);
			dt_cg_load_value(dp, n, r);
			return r;
		case DT_TOK_ADDROF:
			return dt_cg_addr(dp, n->left);
		case DT_TOK_IPOS:
			return dt_cg(dp, n->left);
		case DT_TOK_INEG:
			r = dt_cg(dp, n->left);
			dt_emit(dp, DIF_INSTR_FMT(DIF_OP_SUB, DIF_REG_R0, r, r));
			return r;
		case DT_TOK_BNEG:
			r = dt_cg(dp, n->left);
			dt_emit(dp, DIF_INSTR_NOT(r, r));
			return r;
		case DT_TOK_LNEG: {
			uint32_t lz = dt_label(dp), lpost = dt_label(dp);
			r = dt_cg(dp, n->left);
			dt_emit(dp, DIF_INSTR_TST(r));
			dt_branch(dp, DIF_OP_BE, lz);
			dt_emit(dp, DIF_INSTR_MOV(DIF_REG_R0, r));
			dt_branch(dp, DIF_OP_BA, lpost);
			dt_label_here(dp, lz);
			dt_setx(dp, r, 1);
			dt_label_here(dp, lpost);
			return r;
		}
		case DT_TOK_STRINGOF:
			return dt_cg(dp, n->left);
		case DT_TOK_PREINC:
		case DT_TOK_POSTINC:
		case DT_TOK_PREDEC:
		case DT_TOK_POSTDEC:
			return dt_cg_incdec(dp, n);
		}
		break;
	case DT_NODE_OP2:
		switch (n->op) {
		case DT_TOK_LPAR:
			r = dt_cg(dp, n->right);
			dt_cg_typecast(dp, n->right, n->right->type, NULL, n->type, r);
			return r;
		case DT_TOK_COMMA:
			r = dt_cg(dp, n->left);
			dt_reg_free(dp, r);
			return dt_cg(dp, n->right);
		case DT_TOK_EQU: case DT_TOK_NEQ: case DT_TOK_LT: case DT_TOK_LE: case DT_TOK_GT: case DT_TOK_GE:
			return dt_cg_compare(dp, n);
		case DT_TOK_LAND: case DT_TOK_LOR: case DT_TOK_LXOR:
			return dt_cg_logical(dp, n);
		case DT_TOK_PTR:
		case DT_TOK_DOT:
			if (dt_node_xlator(n->left) != NULL)
				return dt_cg_xlate_member(dp, n);
			r = dt_cg_addr(dp, n);
			/* DTrace loads a member with the user bit of the struct (pointer) it is in */
			dt_cg_load_value_as(dp, n, r, ((n->flags | n->left->flags) & DT_NF_USERLAND) != 0);
			return r;
		case DT_TOK_XLATE:
			/* a translated struct is built; a translated pointer is its input, as in DTrace */
			if (!dt_node_is_dynamic(n))
				return dt_cg_xlate_expand(dp, n);
			return dt_cg(dp, n->right);
		case DT_TOK_ASGN: case DT_TOK_ADD_EQ: case DT_TOK_SUB_EQ: case DT_TOK_MUL_EQ:
		case DT_TOK_DIV_EQ: case DT_TOK_MOD_EQ: case DT_TOK_AND_EQ: case DT_TOK_XOR_EQ:
		case DT_TOK_OR_EQ: case DT_TOK_LSH_EQ: case DT_TOK_RSH_EQ:
			return dt_cg_assign(dp, n);
		default:
			return dt_cg_binary(dp, n);
		}
	default:
		break;
	}
	dt_error(dp->pcb, n->line, D_UNKNOWN, "internal error: cannot generate code for node kind %d", n->kind);
}

void
dt_cg_expr_difo(dt_difo_t *dp, dt_node_t *n)
{
	/* DTrace's dt_cg(): a translated pointer has no value of its own to return */
	if (dt_node_is_dynamic(n) && dt_node_xlator(n) != NULL)
		dnerror(dp->pcb, n, D_CG_DYN, "expression cannot evaluate to result of a translated pointer");
	int r = dt_cg(dp, n);
	dt_emit(dp, DIF_INSTR_RET(r));
	dt_reg_free(dp, r);
	dt_node_diftype(dp->pcb, n, &dp->rtype);
	dt_difo_finish(dp);
	dt_strtab(dp, ""); /* every assembled DIFO has a string table, "" at offset 0 */
	dt_vartab_finish(dp);
	dp->asrtype = dp->rtype;
	dp->assembled = true;
}

dt_difo_t *
dt_difo_const(dt_pcb_t *pcb, uint64_t v)
{
	dt_difo_t *dp = dt_difo_new(pcb);
	dt_setx(dp, 1, v);
	dt_emit(dp, DIF_INSTR_RET(1));
	dp->rtype.dtdt_kind = DIF_TYPE_CTF;
	dp->rtype.dtdt_ckind = CTF_K_INTEGER;
	dp->rtype.dtdt_size = 8;
	return dp;
}
