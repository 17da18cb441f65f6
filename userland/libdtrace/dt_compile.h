/*
 * dt_compile.h: the D compiler's interface to the rest of libdtrace.
 *
 * The consumer half of libdtrace (libdtrace.h, dt_impl.h) calls this header
 * and nothing else of the compiler.  One call turns D source text into a
 * dt_cprog_t: the DOF image to hand to DTRACE_CTL_ENABLE, plus what the
 * consumer needs to drive and describe the program (probe descriptions as
 * written and how many probes each matched, the `#pragma D option' settings,
 * the aggregation names and ids, the printf-like formats) or the error that
 * stopped compilation, in DTrace's wording and with its D_* tag.
 *
 * The compiler never talks to the core: probe matching, probe argument types
 * and option values come through dt_cops_t, which the consumer implements
 * over DTRACE_CTL_PROBEMATCH / PROBEARG and its own option table, and which
 * tests implement over a fixed probe list.
 *
 * Not thread-safe per program; distinct compilations may run in parallel.
 */
#ifndef DT_COMPILE_H
#define DT_COMPILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dtrace_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Compile flags: the values of DTrace's DTRACE_C_* so a consumer may pass
 * its dtrace_program_*compile() flags through unchanged.
 */
#define DT_C_DIFV 0x0001   /* keep DIFOs for dt_cprog_disassemble (-S) */
#define DT_C_EMPTY 0x0002  /* an empty program is not an error */
#define DT_C_ZDEFS 0x0004  /* probe descriptions may match no probe (-Z) */
#define DT_C_EATTR 0x0008  /* statements below `amin' are errors (-x amin) */
#define DT_C_CPP 0x0010    /* run the C preprocessor first (-C) */
#define DT_C_KNODEF 0x0020 /* (reserved) */
#define DT_C_UNODEF 0x0040 /* (reserved) */
#define DT_C_PSPEC 0x0080  /* text starts with a probe description (-n -P -m -f -i) */
#define DT_C_ETAGS 0x0100  /* prefix error messages with [D_TAG] (-x errtags) */
#define DT_C_ARGREF 0x0200 /* macro arguments may go unused (-x argref) */
#define DT_C_DEFARG 0x0800 /* missing macro arguments read as 0 / "" (-x defaultargs) */

/*
 * Services the compiler needs from its host.  Any pointer may be NULL:
 * a NULL probe_match makes every description match exactly one probe (with
 * id 0 and the description's own names) and a NULL setopt accepts and
 * records every option.
 */
typedef struct dt_cops {
	void *arg; /* passed back to every callback */
	/*
	 * Count the probes that match pdp (fields may be empty or globs, as
	 * DTRACE_CTL_PROBEMATCH takes them).  When first is not NULL and the
	 * count is positive, store the first matching probe there (its id and
	 * names type args[] and are used for the -l listing).  Return the
	 * count, or -1 when matching itself failed (the description is then
	 * reported as matching no probe).
	 */
	int (*probe_match)(void *arg, const dtrace_probedesc_t *pdp, dtrace_probedesc_t *first);
	/*
	 * Why a description that matched nothing matched nothing, when its
	 * provider knows (the pid provider: an offset off an instruction
	 * boundary, a function missing from a named module).  Returns 0, or
	 * the error tag (D_PROC_*) with the sentence in buf.  May be NULL.
	 */
	int (*probe_why)(void *arg, const dtrace_probedesc_t *pdp, char *buf, size_t len);
	/*
	 * Put a parsed description in its provider's canonical form before it
	 * is matched and enabled (the pid provider's `a.out` becomes the
	 * executable's file name, as DTrace's dt_pid_fix_mod does).  May be
	 * NULL.
	 */
	void (*probe_fix)(void *arg, dtrace_probedesc_t *pdp);
	/*
	 * Fill in adp->dtargd_native / dtargd_xlate / dtargd_mapping for
	 * probe adp->dtargd_id, argument adp->dtargd_ndx, as DTRACE_CTL_PROBEARG
	 * does; set dtargd_ndx = DTRACE_ARGNONE when there is no such
	 * argument (a probe without typed arguments answers that for
	 * argument 0).  Return 0, or -1 when the probe cannot be described:
	 * args[] may then not be referenced (D_ARGS_MULTI, as DTrace when it
	 * fails to discover the probe).  A NULL probe_arg leaves args[]
	 * untyped (int64_t).
	 */
	int (*probe_arg)(void *arg, dtrace_argdesc_t *adp);
	/*
	 * Fill in the stability attributes of provider `name', as
	 * DTRACE_CTL_PROVIDER does.  Return 0, or -1 when there is no such
	 * provider.  A description matching several probes types args[] only
	 * when these say the probes share one signature (DTrace's
	 * dt_probe_info); a NULL provider_attr never says so.
	 */
	int (*provider_attr)(void *arg, const char *name, dtrace_pattr_t *pap);
	/*
	 * Apply option `name' (value NULL for a bare `#pragma D option name')
	 * as the consumer's -x would.  Return 0, or -1 with a reason in errbuf
	 * (e.g. "Invalid option name"); the compiler then fails with
	 * D_PRAGMA_OPTSET "failed to set option 'name' to 'value': reason".
	 */
	int (*setopt)(void *arg, const char *name, const char *value, char *errbuf, size_t errlen);
} dt_cops_t;

/* Macro variables ($pid, $target, ...); the compiler's defaults are its own process's. */
typedef struct dt_cmacros {
	int set;         /* 0: use the compiler's defaults for all of them */
	int64_t pid;     /* $pid */
	int64_t ppid;    /* $ppid */
	int64_t pgid;    /* $pgid */
	int64_t sid;     /* $sid */
	int64_t uid;     /* $uid */
	int64_t gid;     /* $gid */
	int64_t euid;    /* $euid */
	int64_t egid;    /* $egid */
	int64_t target;  /* $target: the -c/-p process, 0 when none */
	const char *cwd; /* $cwd (NULL: the current directory) */
} dt_cmacros_t;

/*
 * D versions, numbered as DTrace numbers them: major in the top 8 bits,
 * minor and micro in 12 bits each.  -x version and #pragma D option version
 * lower the newest version a program may use; the identifiers D gained after
 * it are then unknown to the program, as DTrace's dt_reduce() makes them.
 */
#define DT_VERSION_NUMBER(M, m, u) \
	((((uint32_t)(M) & 0xff) << 24) | (((uint32_t)(m) & 0xfff) << 12) | ((uint32_t)(u) & 0xfff))
#define DT_VERS_LATEST DT_VERSION_NUMBER(1, 13, 0)

/* "M[.m[.u]]" to a version number (-1: malformed or out of range). */
int dt_version_str2num(const char *s, uint32_t *vp);
/* Is v one of the versions DTrace's D has had (1.0 ... 1.13)? */
int dt_version_defined(uint32_t v);

/*
 * A D library (a .d file of a library directory, -x libdir): its
 * declarations (types, inlines, translators, variables) are read before
 * every program's own text; its clauses are not part of the program.
 */
typedef struct dt_clib {
	const char *path; /* directory/name.d, for messages */
	const char *text;
	size_t len;
} dt_clib_t;

typedef struct dt_copts {
	uint32_t flags;           /* DT_C_* */
	dtrace_probespec_t pspec; /* -n NAME (default), -P PROVIDER, -m MOD, -f FUNC */
	/*
	 * Macro arguments: argv[0] is $0 (the script name), argv[1..] are
	 * $1..; DTrace's rule holds: a $N beyond argc is an error unless
	 * DT_C_DEFARG, and an argument no $N used is an error unless
	 * DT_C_ARGREF or DT_C_DEFARG.
	 */
	int argc;
	char *const *argv;
	const char *filename; /* file name for error messages, or NULL */
	/* -C: preprocessor and its -D/-U/-I/-H arguments (NULL cpp: "cpp") */
	const char *cpp;
	int cpp_argc;
	char *const *cpp_argv;
	/*
	 * -X / -x stdc: the ISO C conformance cpp is run with, as DTrace's
	 * dt_preproc() gives it: 'a' (the default when 0) and 't' define
	 * __STDC__ as 0, 'c' as 1, 's' preprocesses K&R style, without it.
	 */
	char stdc;
	/*
	 * -x iregs, tregs: the DIF registers code may use (0: DIF_DIR_NREGS,
	 * DIF_DTR_NREGS); %r0 is one of the iregs.  A program needing more
	 * fails with D_NOREG, a call with more arguments than tregs with
	 * DTrace's EDT_NOTUPREG message.
	 */
	int iregs;
	int tregs;
	/*
	 * -x tree=N: after pass P of the compilation, when bit P-1 of N is
	 * set, the parse tree is dumped to stderr as DTrace's dt_compile()
	 * dumps it (dt_treedump.c).
	 */
	int treedump;
	/*
	 * The libraries loaded so far, in the order they were loaded, and the
	 * library directories (#pragma D depends_on library looks there).
	 * `library' is the path of the library this text is (loading one),
	 * or NULL for a program, which may not depend on a library.
	 */
	const dt_clib_t *libs;
	int nlibs;
	char *const *libdirs;
	int nlibdirs;
	const char *library;
	/*
	 * -x ctypes, dtypes: when not -1, the file (descriptor) that gets the
	 * CTF of the compilation's types when it ends, as DTrace writes its
	 * "C" container (the C intrinsic types, and types declared in headers
	 * cpp included) and its "D" container (D's own typedefs and string,
	 * and the types the program and its libraries declare; its parent is
	 * "C").  0 is taken as "none" too, as a zeroed dt_copts_t has it.
	 */
	int ctypes_fd;
	int dtypes_fd;
	/*
	 * When set, where the handle keeps those descriptors, read as the
	 * compilation ends instead: a #pragma D option ctypes= or dtypes= of
	 * this compilation opens its file at once (DTrace's dt_opt_ctypes)
	 * and the compilation's end writes it, as DTrace's dt_compile() does.
	 */
	const int *ctypes_fdp;
	const int *dtypes_fdp;
	/*
	 * dtrace -lv: name the types of these argument descriptions (into
	 * argnames, "" for one D cannot resolve) with the libraries' types
	 * declared, instead of compiling the text (dt_args_names).
	 */
	const dtrace_argdesc_t *argtypes;
	int nargtypes;
	char (*argnames)[DTRACE_ARGTYPELEN];
	/*
	 * The D data model (dtrace -32, DTRACE_O_ILP32): long and pointers
	 * are 32 bits in the types D makes (DTrace's _dtrace_ints_32 and
	 * CTF_MODEL_ILP32); false is LP64, the model of every host here.
	 */
	bool ilp32;
	uint32_t strsize;    /* string size; 0 = DTrace's default (256) */
	uint32_t vmax;       /* newest D version the program may use; 0 = DT_VERS_LATEST */
	uint64_t uarg_base;  /* first dofe_uarg/dofa_uarg cookie to use (0 means 1) */
	dtrace_attribute_t amin; /* with DT_C_EATTR: the least stability a statement may have */
	dt_cmacros_t macros;
	dt_cops_t ops;
} dt_copts_t;

/* One probe description as written in the program. */
typedef struct dt_cdesc {
	dtrace_probedesc_t pd; /* parsed fields (after $-expansion) */
	char *text;            /* as written, for "description 'X' matched N probes" */
	int matched;           /* probes it matched when compiled */
	int line;
	int clause; /* index of its clause */
} dt_cdesc_t;

/* One `#pragma D option' (in program order). */
typedef struct dt_coption {
	char *name;
	char *value; /* NULL for a bare option */
	int line;
} dt_coption_t;

/* An aggregation variable the program uses; its id is what printa() DIFOs return. */
typedef struct dt_cagg {
	char *name;            /* without the @; "" for the anonymous @ */
	dtrace_aggvarid_t id;  /* 1.. */
	uint16_t kind;         /* DTRACEAGG_* of its function */
	uint64_t arg;          /* the aggregating action's dofa_arg (lquantize...) */
	int nkeys;             /* tuple members, excluding the id record */
} dt_cagg_t;

/*
 * A C type as the consumer needs it to format a print() record: a
 * self-contained description owned by the program (types of user programs
 * and the D program's own structs alike).  Names are spelled as CTF spells
 * them ("int", "struct foo", "char *", "uint8_t [4]", "struct " for an
 * anonymous struct); `kind' and the rest describe the type with typedefs
 * resolved, `name' is the type as declared (a typedef's name).
 */
#define DT_CTYPE_VOID 0
#define DT_CTYPE_INT 1    /* integers and char; `issigned', `ischar' */
#define DT_CTYPE_FLOAT 2
#define DT_CTYPE_PTR 3    /* `ref' is the pointee (NULL for void *) */
#define DT_CTYPE_ARRAY 4  /* `ref' is the element, `nelems' of them */
#define DT_CTYPE_STRUCT 5 /* `members' */
#define DT_CTYPE_UNION 6  /* `members' (all at offset 0) */
#define DT_CTYPE_ENUM 7   /* `enums' */
#define DT_CTYPE_FUNC 8
#define DT_CTYPE_STRING 9 /* D's string: `size' bytes, NUL-terminated */
#define DT_CTYPE_FWD 10   /* struct/union declared but never defined */

typedef struct dt_ctype dt_ctype_t;

typedef struct dt_cmember {
	const char *name;       /* NULL for an unnamed bit-field */
	const dt_ctype_t *type;
	uint64_t off;           /* bytes from the start of the struct */
	int bits;               /* bit-field width; 0 when not a bit-field */
	int bitoff;             /* bit-field: bits from the low end of the unit at `off' */
} dt_cmember_t;

typedef struct dt_cenum {
	const char *name;
	int64_t value;
} dt_cenum_t;

struct dt_ctype {
	int kind;        /* DT_CTYPE_* */
	const char *name;
	uint64_t size;
	int issigned;
	int ischar;
	const dt_ctype_t *ref;
	uint64_t nelems;
	const dt_cmember_t *members;
	int nmembers;
	const dt_cenum_t *enums;
	int nenums;
};

/*
 * One action in the DOF, indexed by its dofa_uarg - uarg_base.  The record
 * conventions are DTrace's: trace() is DIFEXPR; printf/printa/system/
 * freopen put the format in the DOF string table (dofa_arg) on every
 * argument action; an aggregation is the id record (DIFEXPR returning the
 * aggregation id), one DIFEXPR per key, the increment for quantizing
 * functions, then the DTRACEAGG_* action with dofa_ntuple covering them.
 */
typedef struct dt_caction {
	uint16_t kind;      /* DTRACEACT_* / DTRACEAGG_* */
	int ecb;            /* index of its ECB description (0..) */
	int stmt;           /* statement within the clause (actions of one
	                       printf() or one aggregation share it) */
	const char *format; /* printf-like format, or NULL */
	int agg;            /* index into aggs for aggregating and printa actions, or -1 */
	uint64_t arg;       /* dofa_arg as emitted (format: string offset) */
	/* print(): the type of the DIFEXPR record (its DOF string is "D`N"), else NULL */
	const dt_ctype_t *ptype;
} dt_caction_t;

/* One ECB description: a clause applied to one of its probe descriptions. */
typedef struct dt_cecb {
	int desc;     /* index into descs */
	int clause;
	uint64_t uarg; /* its dofe_uarg */
	/* DTrace's dtsd_descattr / dtsd_stmtattr: the probe description's stability and the
	   minimum over the clause's actions and predicate (Stable/Stable/Common: no actions) */
	dtrace_attribute_t descattr;
	dtrace_attribute_t stmtattr;
} dt_cecb_t;

typedef struct dt_cerror {
	int failed;         /* nonzero when compilation failed */
	int tag;            /* D_* of dt_errtags.h (D_UNKNOWN is 0) */
	int line;           /* 0 when the error has no line */
	char msg[1024];     /* DTrace's message, no trailing newline */
	/* "line N: msg", "[D_TAG] line N: msg" with DT_C_ETAGS, "file, line N: msg"
	   when the error comes from a #line-tagged file: what DTrace prints after
	   "dtrace: failed to compile script x.d: " */
	char text[1200];
} dt_cerror_t;

/*
 * A provider declared by the program (provider p { probe q(int, char *); };),
 * kept for dtrace -h: its name and each probe's name (`__' in the declared
 * name already turned into `-', as DTrace does) with the C type names of its
 * native arguments, in declaration order.
 */
typedef struct dt_cprobe_decl {
	char *name;
	char **args; /* nargs C type names */
	int nargs;
	char **xargs; /* nxargs C type names of the output prototype (: (...)) */
	int nxargs;
	int hasx; /* declared with an output prototype (else xargs are args) */
	unsigned char *map; /* nxargs: the input argument each output one is (dtrace -G) */
} dt_cprobe_decl_t;

typedef struct dt_cprovider {
	char *name;
	dt_cprobe_decl_t *probes;
	size_t nprobes;
} dt_cprovider_t;

/*
 * #pragma D attributes ATTR provider NAME PART: DTrace changes the
 * provider's attributes for the rest of the handle's life (its provider
 * cache), so the consumer applies these to every later description too.
 */
typedef struct dt_cprvattr {
	char name[DTRACE_PROVNAMELEN];
	int part; /* 0 provider, 1 module, 2 function, 3 name, 4 args */
	dtrace_attribute_t attr;
} dt_cprvattr_t;

typedef struct dt_cprog {
	dt_cerror_t err;
	void *dof;       /* the DOF image (malloc'd), NULL on error */
	size_t dof_size;
	dt_cdesc_t *descs;
	size_t ndescs;
	dt_cecb_t *ecbs;
	size_t necbs;
	dt_caction_t *acts;
	size_t nacts;
	dt_cagg_t *aggs;
	size_t naggs;
	dt_coption_t *options;
	size_t noptions;
	uint64_t uarg_base;
	int nclauses;
	dt_cprovider_t *providers; /* provider declarations, for -h */
	size_t nproviders;
	dt_cprvattr_t *prvattrs; /* in program order */
	size_t nprvattrs;
	struct dt_cprog_impl *impl; /* compiler-private (DIFOs for -S) */
} dt_cprog_t;

/*
 * Compile D source text (NUL-terminated) or a file.  Always returns a program
 * unless out of memory (NULL); on failure prog->err.failed != 0, prog->dof is
 * NULL and err holds the message.
 */
dt_cprog_t *dt_compile_string(const char *text, const dt_copts_t *opts);
dt_cprog_t *dt_compile_file(FILE *fp, const dt_copts_t *opts);
void dt_cprog_free(dt_cprog_t *prog);

/* Print every DIFO in DTrace's -S disassembly format. */
void dt_cprog_disassemble(const dt_cprog_t *prog, FILE *fp);

/* Look up an action or aggregation by its uarg cookie (NULL if not ours). */
const dt_caction_t *dt_cprog_action(const dt_cprog_t *prog, uint64_t uarg);
const dt_cecb_t *dt_cprog_ecb(const dt_cprog_t *prog, uint64_t uarg);

/*
 * Build a DOF image holding only DOF_SECT_OPTDESC for every option in
 * opts[0..DTRACEOPT_MAX) that is not DTRACEOPT_UNSET: the way a consumer
 * hands the core its options before GO.  Returns 0 and a malloc'd image.
 */
int dt_dof_options(const dtrace_optval_t *opts, void **dofp, size_t *sizep);

/*
 * "Stable/Evolving/Common" (names in any case; parts left out are Standard,
 * Standard, Common) to attributes, as DTrace's dtrace_str2attr(): 0, or -1
 * for a name that is not a stability or class.
 */
int dt_str2attr(const char *s, dtrace_attribute_t *attr);

/* "D_SYNTAX" for D_SYNTAX; "D_UNKNOWN" for an unknown tag. */
const char *dt_errtag_name(int tag);

/*
 * DTrace's strchr2esc(): a malloc'd copy of s[0..n) with unprintable and
 * special characters as C escapes ("\n", "\"", "\033"), stopping after the
 * first NUL (shown as "\0"); NULL when out of memory.
 */
char *dt_strchr2esc(const char *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* DT_COMPILE_H */
