/*
 * dt_ident.c: identifier tables and D's built-in identifiers.
 *
 * The built-in variables, subroutines, actions and aggregating functions
 * are tables: name, DIF id (or DT_ACT_* / DTRACEAGG_* code), value type
 * and argument prototype.  A prototype is a list of parameter type names
 * separated by ','; "..." accepts any further arguments, a leading '?' marks
 * a parameter optional, "@" is an aggregation and "*" any value.
 */
#include <string.h>

#include "dt_parse.h"
#include "dt_regs.h"
#include "dt_sysconst.h"

/*
 * The index of an identifier table maps each name to its first entry in
 * list order, the entry a walk of the list would find.  dt_idents_init()
 * links the built-ins in front of the list by hand, which leaves the index
 * stale (ihead != head): lookups then walk the list, and the next insert or
 * dt_idtab_reindex() rebuilds it.
 */
uint32_t
dt_idtab_strhash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Enter idp unless an earlier entry has its name. */
static void
dt_idtab_index_put(dt_idtab_t *tab, dt_ident_t *idp)
{
	uint32_t mask = tab->isize - 1;

	for (uint32_t i = dt_idtab_strhash(idp->name) & mask;; i = (i + 1) & mask) {
		if (tab->index[i] == NULL) {
			tab->index[i] = idp;
			tab->icount++;
			return;
		}
		if (strcmp(tab->index[i]->name, idp->name) == 0)
			return;
	}
}

void
dt_idtab_reindex(dt_pcb_t *pcb, dt_idtab_t *tab)
{
	uint32_t n = 0, size = 64;

	for (dt_ident_t *i = tab->head; i != NULL; i = i->next)
		n++;
	while (size < 2 * (n + 1))
		size *= 2;
	tab->index = dt_zalloc(pcb, size * sizeof(dt_ident_t *));
	tab->isize = size;
	tab->icount = 0;
	tab->tail = NULL;
	for (dt_ident_t *i = tab->head; i != NULL; i = i->next) {
		dt_idtab_index_put(tab, i);
		tab->tail = i;
	}
	tab->ihead = tab->head;
}

dt_ident_t *
dt_idtab_lookup(dt_idtab_t *tab, const char *name)
{
	if (tab->index == NULL || tab->ihead != tab->head) {
		for (dt_ident_t *i = tab->head; i != NULL; i = i->next)
			if (strcmp(i->name, name) == 0)
				return i;
		return NULL;
	}
	uint32_t mask = tab->isize - 1;
	for (uint32_t i = dt_idtab_strhash(name) & mask; tab->index[i] != NULL; i = (i + 1) & mask)
		if (strcmp(tab->index[i]->name, name) == 0)
			return tab->index[i];
	return NULL;
}

dt_ident_t *
dt_idtab_insert(dt_pcb_t *pcb, dt_idtab_t *tab, const char *name, dt_idkind_t kind, uint32_t flags)
{
	dt_ident_t *i;

	/* variable ids stop below DIF_VAR_OTHER_MAX, as DTrace's dt_idhash_nextid */
	if (tab->nextid >= DIF_VAR_OTHER_MAX && (tab == &pcb->globals || tab == &pcb->tls || tab == &pcb->locals))
		dt_error(pcb, 0, D_ID_OFLOW, "cannot create %s: limit on number of %s variables exceeded", name,
			 tab == &pcb->globals ? "global" : tab == &pcb->tls ? "thread local" : "clause local");
	i = dt_zalloc(pcb, sizeof(*i));
	i->name = dt_strdup(pcb, name);
	i->kind = kind;
	i->flags = flags;
	i->id = tab->nextid++;
	i->line = pcb->lineno;
	i->attr = dt_attr_def;
	i->lib = pcb->library;
	/* the index at most half full: probes stay short */
	if (tab->index == NULL || tab->ihead != tab->head || 2 * (tab->icount + 1) > tab->isize)
		dt_idtab_reindex(pcb, tab);
	/* append: ids and listing order follow first appearance */
	if (tab->tail == NULL)
		tab->head = i;
	else
		tab->tail->next = i;
	tab->tail = i;
	tab->ihead = tab->head;
	dt_idtab_index_put(tab, i);
	return i;
}

const char *
dt_idkind_name(dt_idkind_t kind)
{
	switch (kind) {
	case DT_IDENT_ARRAY: return "associative array";
	case DT_IDENT_SCALAR: return "scalar";
	case DT_IDENT_PTR: return "pointer";
	case DT_IDENT_FUNC: return "function";
	case DT_IDENT_AGG: return "aggregation";
	case DT_IDENT_AGGFUNC: return "aggregating function";
	case DT_IDENT_ACTFUNC: return "tracing function";
	case DT_IDENT_XLATOR: return "translator";
	case DT_IDENT_INLINE: return "inline";
	case DT_IDENT_ENUM: return "enumerator";
	}
	return "<?>";
}

typedef struct dt_builtin {
	const char *name;
	dt_idkind_t kind;
	uint32_t id;
	const char *type;  /* value or return type */
	const char *proto; /* functions */
	uint32_t flags;
} dt_builtin_t;

static const dt_builtin_t dt_builtins[] = {
	/* variables */
	{"args", DT_IDENT_ARRAY, DIF_VAR_ARGS, "<dynamic>", NULL, 0},
	{"regs", DT_IDENT_ARRAY, DIF_VAR_REGS, "uint64_t", NULL, 0},
	{"uregs", DT_IDENT_ARRAY, DIF_VAR_UREGS, "uint64_t", NULL, 0},
	{"curthread", DT_IDENT_SCALAR, DIF_VAR_CURTHREAD, "void *", NULL, 0},
	{"timestamp", DT_IDENT_SCALAR, DIF_VAR_TIMESTAMP, "uint64_t", NULL, 0},
	{"vtimestamp", DT_IDENT_SCALAR, DIF_VAR_VTIMESTAMP, "uint64_t", NULL, 0},
	{"ipl", DT_IDENT_SCALAR, DIF_VAR_IPL, "uint_t", NULL, 0},
	{"epid", DT_IDENT_SCALAR, DIF_VAR_EPID, "uint_t", NULL, 0},
	{"id", DT_IDENT_SCALAR, DIF_VAR_ID, "uint_t", NULL, 0},
	{"arg0", DT_IDENT_SCALAR, DIF_VAR_ARG0, "int64_t", NULL, 0},
	{"arg1", DT_IDENT_SCALAR, DIF_VAR_ARG1, "int64_t", NULL, 0},
	{"arg2", DT_IDENT_SCALAR, DIF_VAR_ARG2, "int64_t", NULL, 0},
	{"arg3", DT_IDENT_SCALAR, DIF_VAR_ARG3, "int64_t", NULL, 0},
	{"arg4", DT_IDENT_SCALAR, DIF_VAR_ARG4, "int64_t", NULL, 0},
	{"arg5", DT_IDENT_SCALAR, DIF_VAR_ARG5, "int64_t", NULL, 0},
	{"arg6", DT_IDENT_SCALAR, DIF_VAR_ARG6, "int64_t", NULL, 0},
	{"arg7", DT_IDENT_SCALAR, DIF_VAR_ARG7, "int64_t", NULL, 0},
	{"arg8", DT_IDENT_SCALAR, DIF_VAR_ARG8, "int64_t", NULL, 0},
	{"arg9", DT_IDENT_SCALAR, DIF_VAR_ARG9, "int64_t", NULL, 0},
	{"stackdepth", DT_IDENT_SCALAR, DIF_VAR_STACKDEPTH, "uint32_t", NULL, 0},
	{"caller", DT_IDENT_SCALAR, DIF_VAR_CALLER, "uintptr_t", NULL, 0},
	{"probeprov", DT_IDENT_SCALAR, DIF_VAR_PROBEPROV, "string", NULL, 0},
	{"probemod", DT_IDENT_SCALAR, DIF_VAR_PROBEMOD, "string", NULL, 0},
	{"probefunc", DT_IDENT_SCALAR, DIF_VAR_PROBEFUNC, "string", NULL, 0},
	{"probename", DT_IDENT_SCALAR, DIF_VAR_PROBENAME, "string", NULL, 0},
	{"pid", DT_IDENT_SCALAR, DIF_VAR_PID, "pid_t", NULL, 0},
	{"tid", DT_IDENT_SCALAR, DIF_VAR_TID, "id_t", NULL, 0},
	{"execname", DT_IDENT_SCALAR, DIF_VAR_EXECNAME, "string", NULL, 0},
	{"zonename", DT_IDENT_SCALAR, DIF_VAR_ZONENAME, "string", NULL, 0},
	{"walltimestamp", DT_IDENT_SCALAR, DIF_VAR_WALLTIMESTAMP, "int64_t", NULL, 0},
	{"ustackdepth", DT_IDENT_SCALAR, DIF_VAR_USTACKDEPTH, "uint32_t", NULL, 0},
	{"ucaller", DT_IDENT_SCALAR, DIF_VAR_UCALLER, "uint64_t", NULL, 0},
	{"ppid", DT_IDENT_SCALAR, DIF_VAR_PPID, "pid_t", NULL, 0},
	{"uid", DT_IDENT_SCALAR, DIF_VAR_UID, "uid_t", NULL, 0},
	{"gid", DT_IDENT_SCALAR, DIF_VAR_GID, "gid_t", NULL, 0},
	{"errno", DT_IDENT_SCALAR, DIF_VAR_ERRNO, "int", NULL, 0},
	{"threadname", DT_IDENT_SCALAR, DIF_VAR_THREADNAME, "string", NULL, 0},
	{"execargs", DT_IDENT_SCALAR, DIF_VAR_EXECARGS, "string", NULL, 0},
	{"jid", DT_IDENT_SCALAR, DIF_VAR_JID, "int", NULL, 0},
	{"jailname", DT_IDENT_SCALAR, DIF_VAR_JAILNAME, "string", NULL, 0},
	{"cpu", DT_IDENT_SCALAR, DIF_VAR_CPU, "processorid_t", NULL, 0},

	/* subroutines */
	{"rand", DT_IDENT_FUNC, DIF_SUBR_RAND, "int", "", 0},
	{"mutex_owned", DT_IDENT_FUNC, DIF_SUBR_MUTEX_OWNED, "int", "void *", 0},
	{"mutex_owner", DT_IDENT_FUNC, DIF_SUBR_MUTEX_OWNER, "void *", "void *", 0},
	{"mutex_type_adaptive", DT_IDENT_FUNC, DIF_SUBR_MUTEX_TYPE_ADAPTIVE, "int", "void *", 0},
	{"mutex_type_spin", DT_IDENT_FUNC, DIF_SUBR_MUTEX_TYPE_SPIN, "int", "void *", 0},
	{"rw_read_held", DT_IDENT_FUNC, DIF_SUBR_RW_READ_HELD, "int", "void *", 0},
	{"rw_write_held", DT_IDENT_FUNC, DIF_SUBR_RW_WRITE_HELD, "int", "void *", 0},
	{"rw_iswriter", DT_IDENT_FUNC, DIF_SUBR_RW_ISWRITER, "int", "void *", 0},
	{"copyin", DT_IDENT_FUNC, DIF_SUBR_COPYIN, "void *", "uintptr_t,size_t", 0},
	{"copyinstr", DT_IDENT_FUNC, DIF_SUBR_COPYINSTR, "string", "uintptr_t,?size_t", 0},
	{"speculation", DT_IDENT_FUNC, DIF_SUBR_SPECULATION, "int", "", 0},
	{"progenyof", DT_IDENT_FUNC, DIF_SUBR_PROGENYOF, "int", "pid_t", 0},
	{"strlen", DT_IDENT_FUNC, DIF_SUBR_STRLEN, "size_t", "string", 0},
	{"copyout", DT_IDENT_FUNC, DIF_SUBR_COPYOUT, "void", "void *,uintptr_t,size_t", 0},
	{"copyoutstr", DT_IDENT_FUNC, DIF_SUBR_COPYOUTSTR, "void", "char *,uintptr_t,size_t", 0},
	{"alloca", DT_IDENT_FUNC, DIF_SUBR_ALLOCA, "void *", "size_t", 0},
	{"bcopy", DT_IDENT_FUNC, DIF_SUBR_BCOPY, "void", "void *,void *,size_t", 0},
	{"copyinto", DT_IDENT_FUNC, DIF_SUBR_COPYINTO, "void", "uintptr_t,size_t,void *", 0},
	{"msgdsize", DT_IDENT_FUNC, DIF_SUBR_MSGDSIZE, "size_t", "void *", 0},
	{"msgsize", DT_IDENT_FUNC, DIF_SUBR_MSGSIZE, "size_t", "void *", 0},
	{"getmajor", DT_IDENT_FUNC, DIF_SUBR_GETMAJOR, "major_t", "dev_t", 0},
	{"getminor", DT_IDENT_FUNC, DIF_SUBR_GETMINOR, "minor_t", "dev_t", 0},
	{"ddi_pathname", DT_IDENT_FUNC, DIF_SUBR_DDI_PATHNAME, "string", "void *,int64_t", 0},
	{"strjoin", DT_IDENT_FUNC, DIF_SUBR_STRJOIN, "string", "string,string", 0},
	{"lltostr", DT_IDENT_FUNC, DIF_SUBR_LLTOSTR, "string", "int64_t,?int", 0},
	{"basename", DT_IDENT_FUNC, DIF_SUBR_BASENAME, "string", "string", 0},
	{"dirname", DT_IDENT_FUNC, DIF_SUBR_DIRNAME, "string", "string", 0},
	{"cleanpath", DT_IDENT_FUNC, DIF_SUBR_CLEANPATH, "string", "string", 0},
	{"strchr", DT_IDENT_FUNC, DIF_SUBR_STRCHR, "string", "string,char", 0},
	{"strrchr", DT_IDENT_FUNC, DIF_SUBR_STRRCHR, "string", "string,char", 0},
	{"strstr", DT_IDENT_FUNC, DIF_SUBR_STRSTR, "string", "string,string", 0},
	{"strtok", DT_IDENT_FUNC, DIF_SUBR_STRTOK, "string", "string,string", 0},
	{"substr", DT_IDENT_FUNC, DIF_SUBR_SUBSTR, "string", "string,int,?int", 0},
	{"index", DT_IDENT_FUNC, DIF_SUBR_INDEX, "int", "string,string,?int", 0},
	{"rindex", DT_IDENT_FUNC, DIF_SUBR_RINDEX, "int", "string,string,?int", 0},
	{"htons", DT_IDENT_FUNC, DIF_SUBR_HTONS, "uint16_t", "uint16_t", 0},
	{"htonl", DT_IDENT_FUNC, DIF_SUBR_HTONL, "uint32_t", "uint32_t", 0},
	{"htonll", DT_IDENT_FUNC, DIF_SUBR_HTONLL, "uint64_t", "uint64_t", 0},
	{"ntohs", DT_IDENT_FUNC, DIF_SUBR_NTOHS, "uint16_t", "uint16_t", 0},
	{"ntohl", DT_IDENT_FUNC, DIF_SUBR_NTOHL, "uint32_t", "uint32_t", 0},
	{"ntohll", DT_IDENT_FUNC, DIF_SUBR_NTOHLL, "uint64_t", "uint64_t", 0},
	{"inet_ntop", DT_IDENT_FUNC, DIF_SUBR_INET_NTOP, "string", "int,void *", 0},
	{"inet_ntoa", DT_IDENT_FUNC, DIF_SUBR_INET_NTOA, "string", "ipaddr_t *", 0},
	{"inet_ntoa6", DT_IDENT_FUNC, DIF_SUBR_INET_NTOA6, "string", "in6_addr_t *", 0},
	{"toupper", DT_IDENT_FUNC, DIF_SUBR_TOUPPER, "string", "string", 0},
	{"tolower", DT_IDENT_FUNC, DIF_SUBR_TOLOWER, "string", "string", 0},
	{"getf", DT_IDENT_FUNC, DIF_SUBR_GETF, "void *", "int", 0},
	{"json", DT_IDENT_FUNC, DIF_SUBR_JSON, "string", "string,string", 0},
	{"strtoll", DT_IDENT_FUNC, DIF_SUBR_STRTOLL, "int64_t", "string,?int", 0},
	{"memref", DT_IDENT_FUNC, DIF_SUBR_MEMREF, "uintptr_t *", "void *,size_t", 0},
	{"memstr", DT_IDENT_FUNC, DIF_SUBR_MEMSTR, "string", "void *,char,size_t", 0},

	/* actions (consumer-visible codes) */
	{"printf", DT_IDENT_ACTFUNC, DT_ACT_PRINTF, "void", "@,...", 0},
	{"trace", DT_IDENT_ACTFUNC, DT_ACT_TRACE, "void", "@", 0},
	{"tracemem", DT_IDENT_ACTFUNC, DT_ACT_TRACEMEM, "void", "@,size_t,...", 0},
	{"stack", DT_IDENT_ACTFUNC, DT_ACT_STACK, "stack", "...", 0},
	{"stop", DT_IDENT_ACTFUNC, DT_ACT_STOP, "void", "", 0},
	{"breakpoint", DT_IDENT_ACTFUNC, DT_ACT_BREAKPOINT, "void", "", 0},
	{"panic", DT_IDENT_ACTFUNC, DT_ACT_PANIC, "void", "", 0},
	{"speculate", DT_IDENT_ACTFUNC, DT_ACT_SPECULATE, "void", "int", 0},
	{"commit", DT_IDENT_ACTFUNC, DT_ACT_COMMIT, "void", "int", 0},
	{"discard", DT_IDENT_ACTFUNC, DT_ACT_DISCARD, "void", "int", 0},
	{"chill", DT_IDENT_ACTFUNC, DT_ACT_CHILL, "void", "int", 0},
	{"exit", DT_IDENT_ACTFUNC, DT_ACT_EXIT, "void", "int", 0},
	{"ustack", DT_IDENT_ACTFUNC, DT_ACT_USTACK, "stack", "...", 0},
	{"jstack", DT_IDENT_ACTFUNC, DT_ACT_JSTACK, "stack", "...", 0},
	{"printa", DT_IDENT_ACTFUNC, DT_ACT_PRINTA, "void", "@,...", 0},
	{"raise", DT_IDENT_ACTFUNC, DT_ACT_RAISE, "void", "int", 0},
	{"clear", DT_IDENT_ACTFUNC, DT_ACT_CLEAR, "void", "...", 0},
	{"normalize", DT_IDENT_ACTFUNC, DT_ACT_NORMALIZE, "void", "...", 0},
	{"denormalize", DT_IDENT_ACTFUNC, DT_ACT_DENORMALIZE, "void", "...", 0},
	{"trunc", DT_IDENT_ACTFUNC, DT_ACT_TRUNC, "void", "...", 0},
	{"system", DT_IDENT_ACTFUNC, DT_ACT_SYSTEM, "void", "@,...", 0},
	{"ftruncate", DT_IDENT_ACTFUNC, DT_ACT_FTRUNCATE, "void", "", 0},
	{"freopen", DT_IDENT_ACTFUNC, DT_ACT_FREOPEN, "void", "@,...", 0},
	{"sym", DT_IDENT_ACTFUNC, DT_ACT_SYM, "_symaddr", "uintptr_t", 0},
	{"func", DT_IDENT_ACTFUNC, DT_ACT_SYM, "_symaddr", "uintptr_t", 0},
	{"mod", DT_IDENT_ACTFUNC, DT_ACT_MOD, "_symaddr", "uintptr_t", 0},
	{"usym", DT_IDENT_ACTFUNC, DT_ACT_USYM, "_usymaddr", "uintptr_t", 0},
	{"ufunc", DT_IDENT_ACTFUNC, DT_ACT_USYM, "_usymaddr", "uintptr_t", 0},
	{"umod", DT_IDENT_ACTFUNC, DT_ACT_UMOD, "_usymaddr", "uintptr_t", 0},
	{"uaddr", DT_IDENT_ACTFUNC, DT_ACT_UADDR, "_usymaddr", "uintptr_t", 0},
	{"setopt", DT_IDENT_ACTFUNC, DT_ACT_SETOPT, "void", "string,?string", 0},
	{"print", DT_IDENT_ACTFUNC, DT_ACT_PRINT, "void", "@", 0},

	/* aggregating functions */
	{"count", DT_IDENT_AGGFUNC, DTRACEAGG_COUNT, "void", "", 0},
	{"sum", DT_IDENT_AGGFUNC, DTRACEAGG_SUM, "void", "@", 0},
	{"avg", DT_IDENT_AGGFUNC, DTRACEAGG_AVG, "void", "@", 0},
	{"min", DT_IDENT_AGGFUNC, DTRACEAGG_MIN, "void", "@", 0},
	{"max", DT_IDENT_AGGFUNC, DTRACEAGG_MAX, "void", "@", 0},
	{"stddev", DT_IDENT_AGGFUNC, DTRACEAGG_STDDEV, "void", "@", 0},
	{"quantize", DT_IDENT_AGGFUNC, DTRACEAGG_QUANTIZE, "void", "@,...", 0},
	{"lquantize", DT_IDENT_AGGFUNC, DTRACEAGG_LQUANTIZE, "void", "@,int32_t,int32_t,...", 0},
	{"llquantize", DT_IDENT_AGGFUNC, DTRACEAGG_LLQUANTIZE, "void", "@,int32_t,int32_t,int32_t,int32_t,...", 0},
};

/*
 * The stability DTrace's table of globals (dt_open.c _dtrace_globals) gives
 * a built-in: DT_ATTR_STABCMN (Stable/Stable/Common) but for these.  The
 * probe's own names and args[] take the provider's attributes in each
 * clause (dt_action.c).
 */
#define DT_ATTR_EVOLCMN                                                                            \
	{                                                                                          \
		DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON          \
	}
static const struct {
	const char *name;
	dtrace_attribute_t attr;
} dt_builtin_attrs[] = {
    {"curthread", {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_COMMON}},
    {"ddi_pathname", DT_ATTR_EVOLCMN},
    {"getmajor", DT_ATTR_EVOLCMN},
    {"getminor", DT_ATTR_EVOLCMN},
    {"htonl", DT_ATTR_EVOLCMN},
    {"htonll", DT_ATTR_EVOLCMN},
    {"htons", DT_ATTR_EVOLCMN},
    {"mutex_owned", DT_ATTR_EVOLCMN},
    {"mutex_owner", DT_ATTR_EVOLCMN},
    {"mutex_type_adaptive", DT_ATTR_EVOLCMN},
    {"mutex_type_spin", DT_ATTR_EVOLCMN},
    {"ntohl", DT_ATTR_EVOLCMN},
    {"ntohll", DT_ATTR_EVOLCMN},
    {"ntohs", DT_ATTR_EVOLCMN},
    {"rw_iswriter", DT_ATTR_EVOLCMN},
    {"rw_read_held", DT_ATTR_EVOLCMN},
    {"rw_write_held", DT_ATTR_EVOLCMN},
};

static dtrace_attribute_t
dt_builtin_attr(const char *name)
{
	for (size_t i = 0; i < sizeof(dt_builtin_attrs) / sizeof(dt_builtin_attrs[0]); i++)
		if (strcmp(dt_builtin_attrs[i].name, name) == 0)
			return dt_builtin_attrs[i].attr;
	return dt_attr_def;
}

/* D's built-in inlines and constants, as DTrace's libraries define them. */
static const struct {
	const char *name;
	int64_t value;
} dt_consts[] = {
    {"DTRACEFLT_UNKNOWN", DTRACEFLT_UNKNOWN},
    {"DTRACEFLT_BADADDR", DTRACEFLT_BADADDR},
    {"DTRACEFLT_BADALIGN", DTRACEFLT_BADALIGN},
    {"DTRACEFLT_ILLOP", DTRACEFLT_ILLOP},
    {"DTRACEFLT_DIVZERO", DTRACEFLT_DIVZERO},
    {"DTRACEFLT_NOSCRATCH", DTRACEFLT_NOSCRATCH},
    {"DTRACEFLT_KPRIV", DTRACEFLT_KPRIV},
    {"DTRACEFLT_UPRIV", DTRACEFLT_UPRIV},
    {"DTRACEFLT_TUPOFLOW", DTRACEFLT_TUPOFLOW},
    {"DTRACEFLT_BADSTACK", DTRACEFLT_BADSTACK},
    {"DTRACEFLT_LIBRARY", DTRACEFLT_LIBRARY},
    {"AF_INET", 2},
    {"AF_INET6", 10},
    {"NULL", 0}, /* an int, as in DTrace (sizeof (NULL) is 4) */
};

/* A built-in int constant (an enumerator in DTrace's terms). */
static void
dt_const_add(dt_pcb_t *pcb, const char *name, int64_t value)
{
	dt_ident_t *idp = dt_zalloc(pcb, sizeof(*idp));

	idp->name = name;
	idp->kind = DT_IDENT_ENUM;
	idp->type = pcb->t_int;
	idp->value = value;
	idp->flags = DT_IDFLG_BUILTIN;
	idp->attr = dt_attr_def;
	idp->next = pcb->builtins.head;
	pcb->builtins.head = idp;
}

/*
 * The D version that brought each built-in identifier, as DTrace's table of
 * globals records it; every name not listed has been there since 1.0.
 */
static const struct {
	const char *name;
	uint32_t vers;
} dt_builtin_vers[] = {
	{"freopen", DT_VERSION_NUMBER(1, 1, 0)},   {"index", DT_VERSION_NUMBER(1, 1, 0)},
	{"memref", DT_VERSION_NUMBER(1, 1, 0)},    {"rindex", DT_VERSION_NUMBER(1, 1, 0)},
	{"strchr", DT_VERSION_NUMBER(1, 1, 0)},    {"strrchr", DT_VERSION_NUMBER(1, 1, 0)},
	{"strstr", DT_VERSION_NUMBER(1, 1, 0)},    {"strtok", DT_VERSION_NUMBER(1, 1, 0)},
	{"substr", DT_VERSION_NUMBER(1, 1, 0)},    {"func", DT_VERSION_NUMBER(1, 2, 0)},
	{"mod", DT_VERSION_NUMBER(1, 2, 0)},       {"setopt", DT_VERSION_NUMBER(1, 2, 0)},
	{"sym", DT_VERSION_NUMBER(1, 2, 0)},       {"uaddr", DT_VERSION_NUMBER(1, 2, 0)},
	{"ucaller", DT_VERSION_NUMBER(1, 2, 0)},   {"ufunc", DT_VERSION_NUMBER(1, 2, 0)},
	{"umod", DT_VERSION_NUMBER(1, 2, 0)},      {"ustackdepth", DT_VERSION_NUMBER(1, 2, 0)},
	{"usym", DT_VERSION_NUMBER(1, 2, 0)},      {"htonl", DT_VERSION_NUMBER(1, 3, 0)},
	{"htonll", DT_VERSION_NUMBER(1, 3, 0)},    {"htons", DT_VERSION_NUMBER(1, 3, 0)},
	{"ntohl", DT_VERSION_NUMBER(1, 3, 0)},     {"ntohll", DT_VERSION_NUMBER(1, 3, 0)},
	{"ntohs", DT_VERSION_NUMBER(1, 3, 0)},     {"inet_ntoa", DT_VERSION_NUMBER(1, 5, 0)},
	{"inet_ntoa6", DT_VERSION_NUMBER(1, 5, 0)}, {"inet_ntop", DT_VERSION_NUMBER(1, 5, 0)},
	{"stddev", DT_VERSION_NUMBER(1, 6, 0)},    {"cpu", DT_VERSION_NUMBER(1, 6, 3)},
	{"llquantize", DT_VERSION_NUMBER(1, 7, 0)}, {"tolower", DT_VERSION_NUMBER(1, 8, 0)},
	{"toupper", DT_VERSION_NUMBER(1, 8, 0)},   {"print", DT_VERSION_NUMBER(1, 9, 0)},
	{"getf", DT_VERSION_NUMBER(1, 10, 0)},     {"json", DT_VERSION_NUMBER(1, 11, 0)},
	{"strtoll", DT_VERSION_NUMBER(1, 11, 0)},
};

/* The versions of D, oldest first (DTrace's _dtrace_versions[]). */
static const uint32_t dt_versions[] = {
	DT_VERSION_NUMBER(1, 0, 0), DT_VERSION_NUMBER(1, 1, 0), DT_VERSION_NUMBER(1, 2, 0),
	DT_VERSION_NUMBER(1, 2, 1), DT_VERSION_NUMBER(1, 2, 2), DT_VERSION_NUMBER(1, 3, 0),
	DT_VERSION_NUMBER(1, 4, 0), DT_VERSION_NUMBER(1, 4, 1), DT_VERSION_NUMBER(1, 5, 0),
	DT_VERSION_NUMBER(1, 6, 0), DT_VERSION_NUMBER(1, 6, 1), DT_VERSION_NUMBER(1, 6, 2),
	DT_VERSION_NUMBER(1, 6, 3), DT_VERSION_NUMBER(1, 7, 0), DT_VERSION_NUMBER(1, 7, 1),
	DT_VERSION_NUMBER(1, 8, 0), DT_VERSION_NUMBER(1, 8, 1), DT_VERSION_NUMBER(1, 9, 0),
	DT_VERSION_NUMBER(1, 9, 1), DT_VERSION_NUMBER(1, 10, 0), DT_VERSION_NUMBER(1, 11, 0),
	DT_VERSION_NUMBER(1, 12, 0), DT_VERSION_NUMBER(1, 12, 1), DT_VERS_LATEST,
};

int
dt_version_str2num(const char *s, uint32_t *vp)
{
	static const unsigned long max[3] = {0xff, 0xfff, 0xfff};
	unsigned long n[3] = {0, 0, 0};
	int i = 0;

	/* digits and at most two dots; a missing part counts as 0 */
	for (; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9') {
			n[i] = n[i] * 10 + (unsigned long)(*s - '0');
			if (n[i] > max[i])
				return -1;
		} else if (*s != '.' || ++i > 2) {
			return -1;
		}
	}
	if (vp != NULL)
		*vp = DT_VERSION_NUMBER(n[0], n[1], n[2]);
	return 0;
}

int
dt_version_defined(uint32_t v)
{
	for (size_t i = 0; i < sizeof(dt_versions) / sizeof(dt_versions[0]); i++)
		if (dt_versions[i] == v)
			return 1;
	return 0;
}

static uint32_t
dt_builtin_version(const char *name)
{
	for (size_t i = 0; i < sizeof(dt_builtin_vers) / sizeof(dt_builtin_vers[0]); i++)
		if (strcmp(dt_builtin_vers[i].name, name) == 0)
			return dt_builtin_vers[i].vers;
	return DT_VERSION_NUMBER(1, 0, 0);
}

/*
 * Lower the program's D version to v: the built-in identifiers newer than v
 * leave the table, so their names are free for the program's own use.
 */
void
dt_idents_reduce(dt_pcb_t *pcb, uint32_t v)
{
	dt_ident_t **pp = &pcb->builtins.head;

	pcb->vmax = v;
	while (*pp != NULL) {
		dt_ident_t *idp = *pp;
		if ((idp->flags & DT_IDFLG_BUILTIN) && idp->kind != DT_IDENT_ENUM &&
		    dt_builtin_version(idp->name) > v)
			*pp = idp->next;
		else
			pp = &idp->next;
	}
	dt_idtab_reindex(pcb, &pcb->builtins);
}

void
dt_idents_init(dt_pcb_t *pcb)
{
	pcb->globals.nextid = DIF_VAR_OTHER_UBASE;
	pcb->tls.nextid = DIF_VAR_OTHER_UBASE;
	pcb->locals.nextid = DIF_VAR_OTHER_UBASE;
	pcb->aggs.nextid = 1;

	for (size_t i = 0; i < sizeof(dt_builtins) / sizeof(dt_builtins[0]); i++) {
		const dt_builtin_t *b = &dt_builtins[i];
		dt_ident_t *idp = dt_zalloc(pcb, sizeof(*idp));
		idp->name = b->name;
		idp->kind = b->kind;
		idp->id = b->id;
		idp->flags = DT_IDFLG_BUILTIN | b->flags;
		idp->proto = b->proto;
		idp->attr = dt_builtin_attr(b->name);
		if (strcmp(b->type, "<dynamic>") == 0)
			idp->type = pcb->t_dyn;
		else if (strcmp(b->type, "void *") == 0)
			idp->type = pcb->t_voidptr;
		else if (strcmp(b->type, "uintptr_t *") == 0)
			idp->type = dt_type_ptr(pcb, dt_type_lookup(pcb, "uintptr_t"));
		else
			idp->type = dt_type_lookup(pcb, b->type);
		idp->next = pcb->builtins.head;
		pcb->builtins.head = idp;
	}
	/*
	 * DTrace's constants, the target ISA's uregs[] names (dt_regs.h), then
	 * the target's signal and errno numbers (dt_sysconst.h)
	 */
	for (size_t i = 0; i < sizeof(dt_consts) / sizeof(dt_consts[0]); i++)
		dt_const_add(pcb, dt_consts[i].name, dt_consts[i].value);
	for (size_t i = 0; i < dt_nregnames; i++)
		dt_const_add(pcb, dt_regnames[i].name, dt_regnames[i].value);
	for (const dt_regname_t *c = dt_sysconsts; c->name != NULL; c++)
		dt_const_add(pcb, c->name, c->value);
	dt_idents_reduce(pcb, pcb->vmax);
}

dt_ident_t *
dt_builtin_lookup(dt_pcb_t *pcb, const char *name)
{
	return dt_idtab_lookup(&pcb->builtins, name);
}
