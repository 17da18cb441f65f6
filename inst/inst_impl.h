/*
 * inst/inst_impl.h: the engine's tables and sites, shared by inst_site.c
 * (outside probe context) and inst_trap.c (probe context).
 *
 * Two hash tables map (key, address) to a site: one by the probed
 * instruction's address, one by the address of the breakpoint that closes
 * its trampoline (sites whose ISA step borrows a register).  Chains are
 * only ever prepended to, with a release store of a fully built site, and
 * never unlinked while the engine is up, so probe context walks them with
 * acquire loads and no lock.  A probe slot is published the same way: its
 * id and kind are written before its enabled flag.
 */
#ifndef DTRACE_INST_IMPL_H
#define DTRACE_INST_IMPL_H

#include "dtrace_atomic.h"
#include "inst.h"

/* Freestanding: the four memory functions every kernel provides. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

#define INST_TABLE_MAGIC 0x696e73747461626cULL /* "insttabl" */
#define INST_DEFAULT_BUCKETS 4096

typedef struct inst_probe {
	volatile uint32_t ip_enabled; /* read by probe context */
	dtrace_id_t ip_id;	      /* 0: a free slot */
	uint32_t ip_kind;	      /* inst_kind_t */
	uintptr_t ip_func;
	const inst_args_t *ip_args;   /* INST_USDT: its recipe */
} inst_probe_t;

/* A recipe in engine memory, on the table's list until inst_fini. */
typedef struct inst_recipe {
	inst_args_t ir_args;
	struct inst_recipe *ir_next;
} inst_recipe_t;

struct inst_site {
	uint64_t is_key;
	uintptr_t is_addr;
	uintptr_t is_tramp;    /* out-of-line code, 0 if none */
	uintptr_t is_tramp_bp; /* its closing breakpoint, 0 if none */
	void *is_as;	       /* the creator's handle for the space */
	isa_probe_insn_t is_insn;
	uint8_t is_bp[ISA_INSN_MAXLEN];
	uint32_t is_bplen;
	volatile uint32_t is_patched; /* the breakpoint is in the text */
	uint32_t is_nenabled;
	uint32_t is_dead; /* forgotten: matches nothing */
	/* Jump-patched (jump/): the trampoline's start and the copy of the
	 * replaced instructions in it, as the space runs them (0: none; a
	 * thread trapped at the breakpoint resumes in the copy); how many
	 * bytes the copy replaces and the original bytes the jump itself
	 * overwrites (its isa_jump_len); whether the jump is in the text (then
	 * is_patched is too); and jump/'s verdict (INST_JUMP_*). */
	uintptr_t is_jtramp;
	volatile uint64_t is_jcopy;
	uint32_t is_jlen;
	uint8_t is_jorig[ISA_INSN_MAXLEN]; /* the bytes the jump overwrites */
	volatile uint32_t is_jumped;
	uint32_t is_jstate;
	inst_probe_t is_probes[INST_SITE_MAXPROBES];
	inst_site_t *volatile is_next;	/* by-address chain */
	inst_site_t *volatile is_tnext; /* by-breakpoint chain */
	inst_site_t *is_anext;		/* every site */
};

typedef struct inst_table {
	uint64_t it_magic;
	uint32_t it_nbuckets; /* a power of two */
	uint32_t it_pad;
	inst_site_t *volatile *it_sites;
	inst_site_t *volatile *it_tramps;
	inst_site_t *it_all;
	inst_recipe_t *it_recipes;
} inst_table_t;

extern inst_table_t *inst_table;
extern const inst_jump_ops_t *inst_jump_ops;

/* The live site at (key, addr), or NULL (inst_site.c; not probe context). */
inst_site_t *inst_site_at(uint64_t key, uintptr_t addr);

/* is_jstate */
#define INST_JUMP_UNTRIED 0
#define INST_JUMP_CAPABLE 1 /* trampoline written, is_jcopy set */
#define INST_JUMP_REFUSED 2 /* never: the breakpoint serves it */

static inline uint32_t
inst_hash(const inst_table_t *t, uint64_t key, uintptr_t addr)
{
	uint64_t h = ((uint64_t)addr ^ (key * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;

	return (uint32_t)(h >> 32) & (t->it_nbuckets - 1);
}

#endif
