/*
 * core/dif/dif_interp.c: the DIF interpreter, dtrace_dif_emulate().
 *
 * Runs one validated DIFO in probe context and returns the value of its RET.
 * It trusts dtrace_difo_validate() for everything static (opcodes, register
 * and table indices, forward branches ending at a RET, declared variables)
 * and checks everything dynamic: addresses (through dif_access.c), alignment,
 * division by zero, scratch and tuple-stack room, privilege.  A fault sets a
 * DTRACE_CPUF_* bit and cpuc_illval in dtrace_cpu_core[dtms_cpu], stops the
 * program at the end of that instruction, stores the instruction's byte
 * offset in dtms_fltoffs (DTRACE_MSTATE_FLTOFFS) and returns 0.
 *
 * Speed: threaded dispatch (each handler ends with its own indirect jump
 * through a 256-entry table, the GNU C labels-as-values extension gcc and
 * clang share), registers in a local array, and the fault flag tested only
 * after instructions that can fault.  No port call happens for arithmetic,
 * branches, SETX/SETS, arguments, or loads from this CPU's scratch or the
 * DIFO's string table.
 *
 * Deliberate differences from illumos, all where illumos relies on C
 * undefined behaviour: shift counts are taken modulo 64, INT64_MIN / -1 is
 * INT64_MIN (and % is 0), and CMP computes the overflow flag so that the
 * signed branches order INT64_MIN below 1.
 */
#include "dif_internal.h"

/* The by-reference statvar instance a global or clause-local uses now. */
static inline uintptr_t
dif_statvar_inst(const dtrace_statvar_t *sv, const dtrace_mstate_t *mstate, bool local)
{
	uintptr_t a = (uintptr_t)sv->dtsv_data;

	if (local)
		a += (uintptr_t)mstate->dtms_cpu * (dif_byref_size(&sv->dtsv_var.dtdv_type) + sizeof(uint64_t));
	return a;
}

/*
 * Copy a by-reference value into variable storage `dst` of type `t`, after
 * checking the consumer may read the source.  Strings stop at their NUL or
 * at the variable's size.
 */
static void
dif_vcopy(dtrace_mstate_t *mstate, dtrace_vstate_t *vs, dtrace_state_t *state, uintptr_t src,
	  void *dst, const dtrace_diftype_t *t)
{
	size_t lim, size = t->dtdt_size;

	if (t->dtdt_kind == DIF_TYPE_STRING) {
		size_t strsize = dtrace_dif_strsize(state);

		if (!dtrace_dif_strcanload(src, strsize, &lim, mstate, vs))
			return;
		if (lim < size)
			size = lim;
		/*
		 * As DTrace: a string of the variable's size or longer keeps its
		 * first `size` bytes with no NUL; every reader bounds it by strsize.
		 */
		(void)dtrace_dif_copystr(mstate, src, dst, size);
		return;
	}
	if (!dtrace_dif_canload(src, size, mstate, vs))
		return;
	dtrace_dif_copy(mstate, DTRACE_AS_KERNEL, src, dst, size);
}

/* Bytes of data a dynamic variable of this type needs. */
static inline size_t
dif_dsize(const dtrace_difv_t *v)
{
	size_t size = (v->dtdv_type.dtdt_flags & DIF_TF_BYREF) ? dif_byref_size(&v->dtdv_type)
							       : v->dtdv_type.dtdt_size;

	return size > sizeof(uint64_t) ? size : sizeof(uint64_t);
}

/* Load `size` bytes for the LD and RLD families: access check unless kernel access. */
static inline uint64_t
dif_ld(dtrace_mstate_t *mstate, dtrace_vstate_t *vs, uintptr_t addr, size_t size, bool restricted)
{
	if ((addr & (size - 1)) == 0 && addr - mstate->dtms_scratch_base < mstate->dtms_scratch_size &&
	    mstate->dtms_scratch_base + mstate->dtms_scratch_size - addr >= size) {
		/* Fast path: this CPU's scratch, always readable. */
		switch (size) {
		case 1:
			return *(const uint8_t *)addr;
		case 2:
			return *(const uint16_t *)addr;
		case 4:
			return *(const uint32_t *)addr;
		default:
			return *(const uint64_t *)addr;
		}
	}
	if ((restricted || !(mstate->dtms_access & DTRACE_ACCESS_KERNEL)) &&
	    !dtrace_dif_canload(addr, size, mstate, vs))
		return 0;
	return dtrace_dif_load(mstate, DTRACE_AS_KERNEL, addr, size);
}

uint64_t
dtrace_dif_emulate(const dtrace_difo_t *dp, dtrace_mstate_t *mstate, dtrace_vstate_t *vs,
		   dtrace_state_t *state)
{
/* Repeat an initializer: 175 = 7 * 25 unused opcode slots. */
#define R5(x) x, x, x, x, x
#define R25(x) R5(x), R5(x), R5(x), R5(x), R5(x)
	_Static_assert(DIF_OP_MAX == 80, "revisit the dispatch table for new opcodes");
	static const void *const dispatch[256] = {
		&&op_bad,    &&op_or,	  &&op_xor,    &&op_and,    &&op_sll,	 &&op_srl,
		&&op_sub,    &&op_add,	  &&op_mul,    &&op_sdiv,   &&op_udiv,	 &&op_srem,
		&&op_urem,   &&op_not,	  &&op_mov,    &&op_cmp,    &&op_tst,	 &&op_ba,
		&&op_be,     &&op_bne,	  &&op_bg,     &&op_bgu,    &&op_bge,	 &&op_bgeu,
		&&op_bl,     &&op_blu,	  &&op_ble,    &&op_bleu,   &&op_ldsb,	 &&op_ldsh,
		&&op_ldsw,   &&op_ldub,	  &&op_lduh,   &&op_lduw,   &&op_ldx,	 &&op_ret,
		&&op_nop,    &&op_setx,	  &&op_sets,   &&op_scmp,   &&op_ldga,	 &&op_ldgs,
		&&op_stgs,   &&op_bad,	  &&op_ldts,   &&op_stts,   &&op_sra,	 &&op_call,
		&&op_pushtr, &&op_pushtv, &&op_popts,  &&op_flushts, &&op_ldgaa, &&op_ldtaa,
		&&op_stgaa,  &&op_sttaa,  &&op_ldls,   &&op_stls,   &&op_allocs, &&op_copys,
		&&op_stb,    &&op_sth,	  &&op_stw,    &&op_stx,    &&op_uldsb,	 &&op_uldsh,
		&&op_uldsw,  &&op_uldub,  &&op_ulduh,  &&op_ulduw,  &&op_uldx,	 &&op_rldsb,
		&&op_rldsh,  &&op_rldsw,  &&op_rldub,  &&op_rlduh,  &&op_rlduw,	 &&op_rldx,
		&&op_bad,    &&op_bad,	  &&op_bad,    R25(&&op_bad), R25(&&op_bad),
		R25(&&op_bad), R25(&&op_bad), R25(&&op_bad), R25(&&op_bad), R25(&&op_bad),
	};
#undef R25
#undef R5
	const dif_instr_t *text = dp->dtdo_buf;
	const uint64_t *inttab = dp->dtdo_inttab;
	const char *strtab = dp->dtdo_strtab;
	volatile uint32_t *flags = &dtrace_cpu_core[mstate->dtms_cpu].cpuc_flags;
	uint64_t regs[DIF_DIR_NREGS] = {0};
	dtrace_key_t tupregs[DIF_DTR_NREGS + 2]; /* + variable index and thread key */
	uint32_t ttop = 0, pc = 0, opc = 0, r1, r2, rd, id;
	uint8_t cc_n = 0, cc_z = 0, cc_v = 0, cc_c = 0;
	dif_instr_t instr;

#define DISPATCH()                                                                                 \
	do {                                                                                       \
		opc = pc;                                                                          \
		instr = text[pc++];                                                                \
		r1 = DIF_INSTR_R1(instr);                                                          \
		r2 = DIF_INSTR_R2(instr);                                                          \
		rd = DIF_INSTR_RD(instr);                                                          \
		goto *dispatch[DIF_INSTR_OP(instr)];                                               \
	} while (0)
/* After an instruction that can fault. */
#define CHECKED()                                                                                  \
	do {                                                                                       \
		if (*flags & DTRACE_CPUF_FAULT)                                                    \
			goto fault;                                                                \
		DISPATCH();                                                                        \
	} while (0)
#define BRANCH_IF(cond)                                                                            \
	do {                                                                                       \
		if (cond)                                                                          \
			pc = DIF_INSTR_LABEL(instr);                                               \
		DISPATCH();                                                                        \
	} while (0)

	mstate->dtms_difo = dp;
	if (*flags & DTRACE_CPUF_FAULT)
		goto fault; /* a fault already pending: run nothing */
	DISPATCH();

op_or:
	regs[rd] = regs[r1] | regs[r2];
	DISPATCH();
op_xor:
	regs[rd] = regs[r1] ^ regs[r2];
	DISPATCH();
op_and:
	regs[rd] = regs[r1] & regs[r2];
	DISPATCH();
op_sll:
	regs[rd] = regs[r1] << (regs[r2] & 63);
	DISPATCH();
op_srl:
	regs[rd] = regs[r1] >> (regs[r2] & 63);
	DISPATCH();
op_sra:
	regs[rd] = (uint64_t)((int64_t)regs[r1] >> (regs[r2] & 63));
	DISPATCH();
op_sub:
	regs[rd] = regs[r1] - regs[r2];
	DISPATCH();
op_add:
	regs[rd] = regs[r1] + regs[r2];
	DISPATCH();
op_mul:
	regs[rd] = regs[r1] * regs[r2];
	DISPATCH();
op_sdiv:
	if (regs[r2] == 0)
		goto divzero;
	if ((int64_t)regs[r2] == -1) /* INT64_MIN / -1 overflows in C */
		regs[rd] = (uint64_t)0 - regs[r1];
	else
		regs[rd] = (uint64_t)((int64_t)regs[r1] / (int64_t)regs[r2]);
	DISPATCH();
op_srem:
	if (regs[r2] == 0)
		goto divzero;
	if ((int64_t)regs[r2] == -1)
		regs[rd] = 0;
	else
		regs[rd] = (uint64_t)((int64_t)regs[r1] % (int64_t)regs[r2]);
	DISPATCH();
op_udiv:
	if (regs[r2] == 0)
		goto divzero;
	regs[rd] = regs[r1] / regs[r2];
	DISPATCH();
op_urem:
	if (regs[r2] == 0)
		goto divzero;
	regs[rd] = regs[r1] % regs[r2];
	DISPATCH();
op_not:
	regs[rd] = ~regs[r1];
	DISPATCH();
op_mov:
	regs[rd] = regs[r1];
	DISPATCH();
op_cmp: {
	uint64_t a = regs[r1], b = regs[r2], r = a - b;

	cc_n = (uint8_t)(r >> 63);
	cc_z = a == b;
	cc_v = (uint8_t)(((a ^ b) & (a ^ r)) >> 63);
	cc_c = a < b;
	DISPATCH();
}
op_tst:
	cc_n = cc_v = cc_c = 0;
	cc_z = regs[r1] == 0;
	DISPATCH();
op_ba:
	pc = DIF_INSTR_LABEL(instr);
	DISPATCH();
op_be:
	BRANCH_IF(cc_z);
op_bne:
	BRANCH_IF(!cc_z);
op_bg:
	BRANCH_IF(!(cc_z | (cc_n ^ cc_v)));
op_bgu:
	BRANCH_IF(!(cc_c | cc_z));
op_bge:
	BRANCH_IF(!(cc_n ^ cc_v));
op_bgeu:
	BRANCH_IF(!cc_c);
op_bl:
	BRANCH_IF(cc_n ^ cc_v);
op_blu:
	BRANCH_IF(cc_c);
op_ble:
	BRANCH_IF(cc_z | (cc_n ^ cc_v));
op_bleu:
	BRANCH_IF(cc_c | cc_z);

/* The load families: r1 the address, `type` the extension of the result. */
#define LOAD(type, size, restricted)                                                               \
	do {                                                                                       \
		regs[rd] = (uint64_t)(type)dif_ld(mstate, vs, regs[r1], size, restricted);         \
		CHECKED();                                                                         \
	} while (0)
#define ULOAD(type, size)                                                                          \
	do {                                                                                       \
		regs[rd] = (uint64_t)(type)dtrace_dif_load(mstate, DTRACE_AS_USER, regs[r1], size); \
		CHECKED();                                                                         \
	} while (0)
op_ldsb:
	LOAD(int8_t, 1, false);
op_ldsh:
	LOAD(int16_t, 2, false);
op_ldsw:
	LOAD(int32_t, 4, false);
op_ldub:
	LOAD(uint64_t, 1, false);
op_lduh:
	LOAD(uint64_t, 2, false);
op_lduw:
	LOAD(uint64_t, 4, false);
op_ldx:
	LOAD(uint64_t, 8, false);
op_rldsb:
	LOAD(int8_t, 1, true);
op_rldsh:
	LOAD(int16_t, 2, true);
op_rldsw:
	LOAD(int32_t, 4, true);
op_rldub:
	LOAD(uint64_t, 1, true);
op_rlduh:
	LOAD(uint64_t, 2, true);
op_rlduw:
	LOAD(uint64_t, 4, true);
op_rldx:
	LOAD(uint64_t, 8, true);
op_uldsb:
	ULOAD(int8_t, 1);
op_uldsh:
	ULOAD(int16_t, 2);
op_uldsw:
	ULOAD(int32_t, 4);
op_uldub:
	ULOAD(uint64_t, 1);
op_ulduh:
	ULOAD(uint64_t, 2);
op_ulduw:
	ULOAD(uint64_t, 4);
op_uldx:
	ULOAD(uint64_t, 8);
#undef LOAD
#undef ULOAD

op_ret:
	if (*flags & DTRACE_CPUF_FAULT)
		goto fault;
	return regs[rd];
op_nop:
	DISPATCH();
op_setx:
	regs[rd] = inttab[DIF_INSTR_INTEGER(instr)];
	DISPATCH();
op_sets:
	regs[rd] = (uint64_t)(uintptr_t)(strtab + DIF_INSTR_STRING(instr));
	DISPATCH();

op_scmp: {
	size_t sz = dtrace_dif_strsize(state), lim1 = sz, lim2 = sz;
	uintptr_t s1 = regs[r1], s2 = regs[r2];
	int r;

	if (s1 != 0 && !dtrace_dif_strcanload(s1, sz, &lim1, mstate, vs))
		goto fault;
	if (s2 != 0 && !dtrace_dif_strcanload(s2, sz, &lim2, mstate, vs))
		goto fault;
	r = dtrace_dif_strncmp(mstate, s1, s2, lim1 < lim2 ? lim1 : lim2);
	cc_n = r < 0;
	cc_z = r == 0;
	cc_v = cc_c = 0;
	CHECKED();
}

op_ldga:
	regs[rd] = dtrace_dif_variable(mstate, state, r1, regs[r2]);
	CHECKED();

op_ldgs: {
	const dtrace_statvar_t *sv;
	uintptr_t a;

	id = DIF_INSTR_VAR(instr);
	if (id < DIF_VAR_OTHER_UBASE) {
		/* Arguments are the most used built-ins: no call for them. */
		if (id - DIF_VAR_ARG0 < 5 && (mstate->dtms_access & DTRACE_ACCESS_ARGS)) {
			regs[rd] = mstate->dtms_arg[id - DIF_VAR_ARG0];
			DISPATCH();
		}
		regs[rd] = dtrace_dif_variable(mstate, state, id, 0);
		CHECKED();
	}
	id -= DIF_VAR_OTHER_UBASE;
	if (id >= (uint32_t)vs->dtvs_nglobals || (sv = vs->dtvs_globals[id]) == NULL)
		goto illop; /* DIFO not initialized for this state */
	if (!(sv->dtsv_var.dtdv_type.dtdt_flags & DIF_TF_BYREF)) {
		regs[rd] = *(const uint64_t *)(uintptr_t)sv->dtsv_data;
		DISPATCH();
	}
	a = (uintptr_t)sv->dtsv_data;
	regs[rd] = *(const uint8_t *)a == UINT8_MAX ? 0 : a + sizeof(uint64_t);
	DISPATCH();
}

op_stgs: {
	dtrace_statvar_t *sv;
	uintptr_t a;

	id = DIF_INSTR_VAR(instr) - DIF_VAR_OTHER_UBASE;
	if (id >= (uint32_t)vs->dtvs_nglobals || (sv = vs->dtvs_globals[id]) == NULL)
		goto illop;
	if (!(sv->dtsv_var.dtdv_type.dtdt_flags & DIF_TF_BYREF)) {
		*(uint64_t *)(uintptr_t)sv->dtsv_data = regs[rd];
		DISPATCH();
	}
	a = (uintptr_t)sv->dtsv_data;
	if (regs[rd] == 0) {
		*(uint8_t *)a = UINT8_MAX; /* NULL: unset */
		DISPATCH();
	}
	*(uint8_t *)a = 0;
	dif_vcopy(mstate, vs, state, regs[rd], (void *)(a + sizeof(uint64_t)),
		  &sv->dtsv_var.dtdv_type);
	CHECKED();
}

op_ldls:
op_stls: {
	dtrace_statvar_t *sv;
	uintptr_t a;
	bool load = DIF_INSTR_OP(instr) == DIF_OP_LDLS;

	id = DIF_INSTR_VAR(instr) - DIF_VAR_OTHER_UBASE;
	if (id >= (uint32_t)vs->dtvs_nlocals || (sv = vs->dtvs_locals[id]) == NULL)
		goto illop;
	if (!(sv->dtsv_var.dtdv_type.dtdt_flags & DIF_TF_BYREF)) {
		uint64_t *slot = (uint64_t *)(uintptr_t)sv->dtsv_data + mstate->dtms_cpu;

		if (load)
			regs[rd] = *slot;
		else
			*slot = regs[rd];
		DISPATCH();
	}
	a = dif_statvar_inst(sv, mstate, true);
	if (load) {
		regs[rd] = *(const uint8_t *)a == UINT8_MAX ? 0 : a + sizeof(uint64_t);
		DISPATCH();
	}
	if (regs[rd] == 0) {
		*(uint8_t *)a = UINT8_MAX;
		DISPATCH();
	}
	*(uint8_t *)a = 0;
	dif_vcopy(mstate, vs, state, regs[rd], (void *)(a + sizeof(uint64_t)),
		  &sv->dtsv_var.dtdv_type);
	CHECKED();
}

op_ldts:
op_stts: {
	const dtrace_difv_t *v;
	dtrace_dynvar_t *dvar;
	void *data = NULL;
	dtrace_key_t *key = &tupregs[DIF_DTR_NREGS];
	bool load = DIF_INSTR_OP(instr) == DIF_OP_LDTS;

	id = DIF_INSTR_VAR(instr) - DIF_VAR_OTHER_UBASE;
	if (id >= (uint32_t)vs->dtvs_ntlocals)
		goto illop;
	v = &vs->dtvs_tlocals[id];
	key[0].dttk_value = id;
	key[0].dttk_size = 0;
	key[1].dttk_value = dtrace_dif_thread_key(mstate);
	key[1].dttk_size = 0;
	dvar = dtrace_dynvar(&vs->dtvs_dynvars, 2, key, dif_dsize(v),
			     load		? DTRACE_DYNVAR_NOALLOC
			     : regs[rd] != 0 ? DTRACE_DYNVAR_ALLOC
					     : DTRACE_DYNVAR_DEALLOC,
			     mstate, vs);
	/* the data as far as it lies in the variable's own chunk: the store
	 * is memory traced processes can write */
	if (dvar != NULL && (data = dtrace_dynvar_data(&vs->dtvs_dynvars, dvar, dif_dsize(v))) == NULL) {
		dtrace_dynvar_drop(&vs->dtvs_dynvars, mstate);
		dvar = NULL;
	}
	if (load) {
		if (dvar == NULL)
			regs[rd] = 0;
		else if (v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
			regs[rd] = (uintptr_t)data;
		else
			regs[rd] = *(const uint64_t *)data;
		CHECKED();
	}
	if (dvar != NULL) {
		if (v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
			dif_vcopy(mstate, vs, state, regs[rd], data, &v->dtdv_type);
		else
			*(uint64_t *)data = regs[rd];
	}
	CHECKED();
}

op_call:
	dtrace_dif_subr(DIF_INSTR_SUBR(instr), rd, regs, tupregs, (int)ttop, mstate, vs, state);
	CHECKED();

op_pushtr: {
	uint64_t size;

	if (ttop == DIF_DTR_NREGS) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_TUPOFLOW, 0);
		goto fault;
	}
	if (r1 == DIF_TYPE_STRING) {
		/* Bounded by the pushed size, or strsize: never unbounded. */
		size_t lim = dtrace_dif_strsize(state);

		if (regs[r2] != 0 && regs[r2] < lim)
			lim = regs[r2];
		size = dtrace_dif_strlen(mstate, regs[rd], lim) + 1;
	} else {
		if (regs[r2] > (uint64_t)INT64_MAX)
			goto illop;
		size = regs[r2];
	}
	tupregs[ttop].dttk_value = regs[rd];
	tupregs[ttop++].dttk_size = size;
	CHECKED();
}
op_pushtv:
	if (ttop == DIF_DTR_NREGS) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_TUPOFLOW, 0);
		goto fault;
	}
	tupregs[ttop].dttk_value = regs[rd];
	tupregs[ttop++].dttk_size = 0;
	DISPATCH();
op_popts:
	if (ttop != 0)
		ttop--;
	DISPATCH();
op_flushts:
	ttop = 0;
	DISPATCH();

op_ldgaa:
op_ldtaa:
op_stgaa:
op_sttaa: {
	uint32_t op = DIF_INSTR_OP(instr), nkeys = ttop;
	bool tls = op == DIF_OP_LDTAA || op == DIF_OP_STTAA;
	bool load = op == DIF_OP_LDGAA || op == DIF_OP_LDTAA;
	const dtrace_difv_t *v;
	dtrace_dynvar_t *dvar;
	void *data = NULL;

	id = DIF_INSTR_VAR(instr) - DIF_VAR_OTHER_UBASE;
	if (tls) {
		if (id >= (uint32_t)vs->dtvs_ntlocals)
			goto illop;
		v = &vs->dtvs_tlocals[id];
	} else {
		if (id >= (uint32_t)vs->dtvs_nglobals || vs->dtvs_globals[id] == NULL)
			goto illop;
		v = &vs->dtvs_globals[id]->dtsv_var;
	}
	tupregs[nkeys].dttk_value = id;
	tupregs[nkeys++].dttk_size = 0;
	if (tls) {
		tupregs[nkeys].dttk_value = dtrace_dif_thread_key(mstate);
		tupregs[nkeys++].dttk_size = 0;
	}
	dvar = dtrace_dynvar(&vs->dtvs_dynvars, nkeys, tupregs, dif_dsize(v),
			     load		? DTRACE_DYNVAR_NOALLOC
			     : regs[rd] != 0 ? DTRACE_DYNVAR_ALLOC
					     : DTRACE_DYNVAR_DEALLOC,
			     mstate, vs);
	/* the data as far as it lies in the variable's own chunk: the store
	 * is memory traced processes can write */
	if (dvar != NULL && (data = dtrace_dynvar_data(&vs->dtvs_dynvars, dvar, dif_dsize(v))) == NULL) {
		dtrace_dynvar_drop(&vs->dtvs_dynvars, mstate);
		dvar = NULL;
	}
	if (load) {
		if (dvar == NULL)
			regs[rd] = 0;
		else if (v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
			regs[rd] = (uintptr_t)data;
		else
			regs[rd] = *(const uint64_t *)data;
		CHECKED();
	}
	if (dvar != NULL) {
		if (v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
			dif_vcopy(mstate, vs, state, regs[rd], data, &v->dtdv_type);
		else
			*(uint64_t *)data = regs[rd];
	}
	CHECKED();
}

op_allocs: {
	uintptr_t start = mstate->dtms_scratch_ptr;
	uintptr_t p = dtrace_dif_scratch(mstate, regs[r1], 8);

	if (p == 0) {
		regs[rd] = 0;
		goto fault;
	}
	memset((void *)start, 0, mstate->dtms_scratch_ptr - start);
	regs[rd] = p;
	DISPATCH();
}

op_copys:
	if (!dtrace_dif_canstore(regs[rd], regs[r2], mstate, vs)) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_BADADDR, regs[rd]);
		goto fault;
	}
	if (!dtrace_dif_canload(regs[r1], regs[r2], mstate, vs))
		goto fault;
	dtrace_dif_copy(mstate, DTRACE_AS_KERNEL, regs[r1], (void *)(uintptr_t)regs[rd], regs[r2]);
	CHECKED();

#define STORE(type)                                                                                \
	do {                                                                                       \
		uintptr_t a_ = regs[rd];                                                           \
		if (!dtrace_dif_canstore(a_, sizeof(type), mstate, vs)) {                          \
			dtrace_dif_fault(mstate, DTRACE_CPUF_BADADDR, a_);                         \
			goto fault;                                                                \
		}                                                                                  \
		if (a_ & (sizeof(type) - 1)) {                                                     \
			dtrace_dif_fault(mstate, DTRACE_CPUF_BADALIGN, a_);                        \
			goto fault;                                                                \
		}                                                                                  \
		*(type *)a_ = (type)regs[r1];                                                      \
		DISPATCH();                                                                        \
	} while (0)
op_stb:
	STORE(uint8_t);
op_sth:
	STORE(uint16_t);
op_stw:
	STORE(uint32_t);
op_stx:
	STORE(uint64_t);
#undef STORE

op_bad:
	/* Not reachable after validation; stop rather than guess. */
illop:
	dtrace_dif_fault(mstate, DTRACE_CPUF_ILLOP, 0);
	goto fault;
divzero:
	regs[rd] = 0;
	dtrace_dif_fault(mstate, DTRACE_CPUF_DIVZERO, 0);
fault:
	mstate->dtms_fltoffs = (int)(opc * sizeof(dif_instr_t));
	mstate->dtms_present |= DTRACE_MSTATE_FLTOFFS;
	return 0;
#undef DISPATCH
#undef CHECKED
#undef BRANCH_IF
}
