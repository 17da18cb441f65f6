/*
 * inst/inst_usdt.c: statically defined probes' sites (USDT).
 *
 * A USDT probe's instruction (a nop the compiler left, or a call DTrace's
 * -G rewrote) carries the probe like any site; what differs is how its
 * arguments are found.  The provider describes each one as a recipe
 * (inst.h) and the engine keeps a copy, in memory every process that
 * traps can read, until inst_fini(): a thread may be following it in
 * probe context (inst_args.c) after the probe left the site.  An
 * is-enabled site (kind INST_ISENABLED) needs no recipe.  Not probe
 * context; the caller serialises, as for every site change.
 */
#include "inst_impl.h"

static bool
arg_valid(const inst_arg_t *a)
{
	if (a->ia_size != 1 && a->ia_size != 2 && a->ia_size != 4 && a->ia_size != 8)
		return false;
	switch (a->ia_kind) {
	case INST_ARG_NONE:
	case INST_ARG_CONST:
		return true;
	case INST_ARG_REG:
		return a->ia_base < ISA_NREGS && a->ia_regbytes >= 1 && a->ia_regbytes <= 8 &&
		       a->ia_shift < 64;
	case INST_ARG_MEM:
		return (a->ia_base == INST_ARG_NOREG || a->ia_base < ISA_NREGS) &&
		       (a->ia_index == INST_ARG_NOREG || a->ia_index < ISA_NREGS) &&
		       (a->ia_scale == 1 || a->ia_scale == 2 || a->ia_scale == 4 ||
		        a->ia_scale == 8);
	default:
		return false;
	}
}

int
inst_site_add_usdt(inst_site_t *s, dtrace_id_t id, inst_kind_t kind, const inst_args_t *args)
{
	inst_recipe_t *r = NULL;
	unsigned i;
	int err;

	if (kind != INST_USDT && kind != INST_ISENABLED)
		return DTRACE_EINVAL;
	if (kind == INST_USDT) {
		if (args == NULL || args->ia_nargs > INST_ARGS_MAX)
			return DTRACE_EINVAL;
		for (i = 0; i < args->ia_nargs; i++)
			if (!arg_valid(&args->ia_arg[i]))
				return DTRACE_EINVAL;
	}
	for (i = 0; i < INST_SITE_MAXPROBES; i++)
		if (s->is_probes[i].ip_id == id)
			return 0;
	if (kind == INST_USDT) {
		if ((r = dtrace_port_zalloc(sizeof(*r))) == NULL)
			return DTRACE_ENOMEM;
		memcpy(&r->ir_args, args, sizeof(*args));
	}
	if ((err = inst_site_add_probe(s, id, kind, 0)) != 0) {
		if (r != NULL)
			dtrace_port_free(r, sizeof(*r));
		return err;
	}
	if (r == NULL)
		return 0;
	r->ir_next = inst_table->it_recipes;
	inst_table->it_recipes = r;
	/* The slot is published (its id set) but not enabled: probe context
	 * reads the recipe only once it sees the enabled flag, which
	 * inst_probe_enable() stores with release after this. */
	for (i = 0; i < INST_SITE_MAXPROBES; i++)
		if (s->is_probes[i].ip_id == id)
			s->is_probes[i].ip_args = &r->ir_args;
	return 0;
}
