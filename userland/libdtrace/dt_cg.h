/*
 * dt_cg.h: code generation, assembly and DOF building (private).
 *
 * dt_cg_* turns a cooked expression into DIF instructions in a dt_difo_t
 * under construction: registers come from a small allocator (%r1..%r7,
 * %r0 reads as zero), branch targets are labels resolved when the DIFO is
 * finished (dt_difo_finish), integer and string constants are interned in
 * the DIFO's tables, and every variable an instruction names is entered in
 * its variable table with the REF/MOD flags and type the core checks.
 */
#ifndef DT_CG_H
#define DT_CG_H

#include "dt_parse.h"

typedef struct dt_difo {
	dif_instr_t *buf;
	uint32_t len, cap;
	uint64_t *inttab;
	uint32_t intlen, intcap;
	char *strtab;
	uint32_t strlen, strcap;
	dtrace_difv_t *vartab;
	uint32_t varlen, varcap;
	dtrace_diftype_t rtype;
	/*
	 * -S: DTrace prints a DIFO when its assembler finishes it, with the
	 * return type of the expression (actions may change rtype later);
	 * DIFOs an action builds directly (aggregation ids, printa, clear,
	 * an argument-less printf) are never assembled and never printed.
	 */
	bool assembled;
	dtrace_diftype_t asrtype;
	const dt_ident_t **varids; /* the identifier of each vartab entry, until finished */
	/* labels: index -> instruction, and branches to patch */
	uint32_t *labels;
	uint32_t nlabels, labcap;
	uint64_t regs[4]; /* allocated registers, a bit each (DIF names 256) */
	dt_pcb_t *pcb;
	int id; /* order of creation, for -S */
	const char *what; /* "predicate", "action", for -S headers */
	struct dt_difo *next;
} dt_difo_t;

dt_difo_t *dt_difo_new(dt_pcb_t *pcb);
void dt_difo_free(dt_difo_t *dp);
void dt_difo_finish(dt_difo_t *dp);
/* Compile expression n into dp: result register returned by RET. */
void dt_cg_expr_difo(dt_difo_t *dp, dt_node_t *n);
/* A DIFO returning the constant v. */
dt_difo_t *dt_difo_const(dt_pcb_t *pcb, uint64_t v);
void dt_node_diftype(dt_pcb_t *pcb, dt_node_t *n, dtrace_diftype_t *t);

/* DOF construction (dt_dof.c) */
struct dt_stmt_act {
	uint16_t kind;
	dt_difo_t *difo;
	uint32_t ntuple;
	uint64_t arg;
	const char *format;
	int agg;
	int stmt;
	const char *strdata;     /* print(): the type string for the DOF string table */
	const dt_ctype_t *ptype; /* print(): the record's type */
};

struct dt_ecb_out {
	dtrace_probedesc_t pd;
	dt_difo_t *pred;
	struct dt_stmt_act *acts;
	int nacts;
	int desc;
	int clause;
	dtrace_attribute_t descattr, stmtattr;
};

void dt_dof_build(dt_pcb_t *pcb, struct dt_ecb_out *ecbs, int necbs);

/* disassembly (dt_dis.c) */
void dt_dis_difo(const dt_difo_t *dp, FILE *fp);

struct dt_cprog_impl {
	dt_difo_t *difos; /* every DIFO of the program, in order */
	dt_difo_t *last;
	/* memory that lives as long as the program (exported print() types) */
	struct dt_progmem *mem;
	/* exported types, by the compiler type they describe */
	struct dt_typemap {
		const void *from;
		const dt_ctype_t *to;
	} *typemap;
	size_t ntypemap, typemapcap;
};

/* Describe type t for the consumer (dt_ctype_t, owned by the program); its index in *idx. */
const dt_ctype_t *dt_type_export(dt_pcb_t *pcb, dt_type_t *t, size_t *idx);
void dt_progmem_free(struct dt_cprog_impl *impl);

#endif /* DT_CG_H */
