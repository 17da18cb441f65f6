/*
 * dt_impl.h: the consumer handle and the private interfaces between the
 * consumer's files.
 *
 * The handle caches what the core describes once and the consumer reads
 * often: enabled-probe descriptions by EPID, aggregation descriptions by
 * aggregation id, parsed printf formats by format id.  The caches fill on
 * first use through the backend (EPROBE, PROBES, AGGDESC, FORMAT) and can
 * be filled directly, which is how tests format synthetic records without a
 * core.  Nothing here is thread-safe: a handle belongs to one thread.
 */
#ifndef DT_IMPL_H
#define DT_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dt_backend.h"
#include "libdtrace.h"

struct dt_cprog;
typedef struct dt_pfargv dt_pfargv_t;
typedef struct dt_symtab dt_symtab_t;

/* Compiled programs get uarg cookies from here up, one range per program. */
#define DT_UARG_BASE 0x100

/* dtagd_flags bits (consumer-side) */
#define DTRACE_AGD_PRINTED 0x1

/* dt_aggregate.dtat_flags */
#define DTRACE_A_PERCPU 0x1

/* -x encoding: how bars are drawn (unset: '@'; aggpack asks the terminal) */
#define DT_ENCODING_UNSET 0
#define DT_ENCODING_ASCII 1
#define DT_ENCODING_UTF8 2

/* aggzoom: the tallest bar fills this fraction of the width */
#define DT_AGGZOOM_MAX 0.95L

/* -X a|c|s|t: the ISO C conformance the preprocessor gets (dt_opt_stdc) */
#define DT_STDC_XA 0 /* ANSI C with K&R compatibility: __STDC__ is 0 (the default) */
#define DT_STDC_XC 1 /* strict conformance: __STDC__ is 1 */
#define DT_STDC_XS 2 /* K&R C: traditional preprocessing, no __STDC__ */
#define DT_STDC_XT 3 /* transition: __STDC__ is 0 */

/* -x linkmode, linktype, late, evaltime: DTrace's values */
#define DT_LINK_KERNEL 0
#define DT_LINK_PRIMARY 1
#define DT_LINK_DYNAMIC 2
#define DT_LINK_STATIC 3
#define DT_LTYP_ELF 0
#define DT_LTYP_DOF 1
#define DT_XL_STATIC 0
#define DT_XL_DYNAMIC 1
#define DT_PROC_STOP_IDLE 0
#define DT_PROC_STOP_CREATE 1
#define DT_PROC_STOP_PREINIT 2
#define DT_PROC_STOP_POSTINIT 3
#define DT_PROC_STOP_MAIN 4

/* dt_dflags: -x strip */
#define DTRACE_D_STRIP 0x01

/* Default indentation of stack frames (stackindent unset). */
#define DT_STACKINDENT 14

typedef struct dt_ahashent {
	struct dt_ahashent *dtahe_next;    /* hash chain */
	struct dt_ahashent *dtahe_nextall; /* all entries, newest first */
	struct dt_ahashent *dtahe_prevall;
	uint64_t dtahe_hashval;
	dtrace_aggvarid_t dtahe_varid;
	dtrace_aggdata_t dtahe_data;
} dt_ahashent_t;

typedef struct dt_aggregate {
	dt_ahashent_t **dtat_hash;
	size_t dtat_hashsize; /* power of two */
	size_t dtat_nent;
	dt_ahashent_t *dtat_all;
	char *dtat_buf; /* snapshot buffer, aggsize bytes */
	size_t dtat_bufsize;
	int dtat_flags;
} dt_aggregate_t;

/* A principal-buffer snapshot being consumed record by record. */
typedef struct dt_cpubuf {
	char *dtcb_data; /* unrung: records from dtcb_offs on */
	size_t dtcb_size;
	size_t dtcb_offs;
	int dtcb_cpu;
	uint64_t dtcb_latest; /* time of its latest snapshot: no record is later */
} dt_cpubuf_t;

typedef struct dt_proglist {
	dtrace_prog_t *head;
} dt_proglist_t;

struct dtrace_prog {
	dtrace_prog_t *dp_next;
	struct dt_cprog *dp_cprog;
	char *dp_name;
	unsigned dp_matches; /* probes matched at compile time */
	int dp_enabled;
};

/* A process the consumer traces (dt_proc.c). */
#define DT_PROC_MAX 64
typedef struct dt_proc {
	int dpr_pid;
	int dpr_created; /* -c: ours to wait for, and to kill if never continued */
	int dpr_held;	 /* created and not yet continued */
	int dpr_live;	 /* not yet reported gone */
} dt_proc_t;

struct dtrace_hdl {
	int dt_version;
	int dt_oflags;
	int dt_errno;
	char dt_errmsg[1280]; /* last compiler error text */

	/* options */
	dtrace_optval_t dt_options[DTRACEOPT_MAX];
	unsigned dt_cflags; /* DTRACE_C_* set through options */
	uint32_t dt_vmax;   /* newest D version programs may use (-x version) */
	dtrace_attribute_t dt_amin; /* -x amin: least stability of a statement (DTRACE_C_EATTR) */
	char **dt_cpp_argv; /* -D -U -I -H for the preprocessor */
	int dt_cpp_argc;
	char *dt_cpp_path;
	int dt_stdcmode;      /* -X / -x stdc: DT_STDC_* */
	int dt_iregs;         /* -x iregs: DIF integer registers programs may use */
	int dt_tregs;         /* -x tregs: DIF tuple registers */
	int dt_treedump;      /* -x tree: bit N-1 dumps the parse tree after pass N */
	int dt_linkmode;      /* -x linkmode: DT_LINK_* */
	int dt_linktype;      /* -x linktype: DT_LTYP_* */
	int dt_xlatemode;     /* -x late: DT_XL_* */
	int dt_prcmode;       /* -x evaltime: DT_PROC_STOP_* */
	int dt_pgmax;         /* -x pgmax: grabbed processes kept */
	int dt_lazyload;      /* -x lazyload */
	unsigned dt_dflags;   /* DTRACE_D_* (-x strip) */
	char *dt_ld_path;     /* -x ldpath */
	char **dt_libdirs;    /* D library directories: [0] the system's (-x syslibdir), then -x libdir */
	int dt_nlibdirs;
	int dt_cdefs_fd;      /* -x ctypes: the file the C types go to, or -1 */
	int dt_ddefs_fd;      /* -x dtypes: the file the D types go to, or -1 */
	char **dt_proc_env;   /* the environment of -c processes (-x setenv, unsetenv) */
	struct dt_clib *dt_libs; /* the D libraries loaded, in load order (dt_program.c) */
	int dt_nlibs;

	/* the core */
	const dt_backend_t *dt_backend;
	void *dt_bestate;
	int dt_ncpu;
	int dt_active;
	int dt_inprog; /* setting an option from a D program's #pragma (dt_program.c) */
	int dt_stopped;
	int dt_filled;
	int dt_beganon;
	int dt_endedon;

	/* rates */
	int64_t dt_lastswitch;
	int64_t dt_lastagg;
	int64_t dt_laststatus;
	dtrace_status_t dt_status[2];
	int dt_statusgen;

	/* descriptor caches */
	dtrace_eprobedesc_t **dt_edesc;
	dtrace_probedesc_t **dt_pdesc;
	uint32_t dt_maxprobe;
	dtrace_aggdesc_t **dt_aggdesc;
	uint32_t dt_maxagg;
	dt_pfargv_t **dt_formats;
	uint32_t dt_maxformat;

	/* aggregations */
	dt_aggregate_t dt_aggregate;

	/* principal buffers awaiting consumption, one per CPU */
	dt_cpubuf_t *dt_cpubufs;
	char *dt_snapbuf; /* BUFSNAP target, bufsize bytes */
	size_t dt_snapsize;

	/* flowindent state across records */
	dtrace_epid_t dt_last_epid;
	int dt_indent;
	const char *dt_prefix;
	int dt_flow;

	/* handlers */
	dtrace_handle_err_f *dt_errhdlr;
	void *dt_errarg;
	int dt_errprog_on;    /* the ERROR enabling goes in at dtrace_go() */
	uint64_t dt_erruarg; /* dtepd_uarg of that enabling, 0 before */
	dtrace_handle_drop_f *dt_drophdlr;
	int dt_droptags; /* -x droptags: drop messages start with their [DTRACEDROP_*] */
	int dt_encoding; /* -x encoding: DT_ENCODING_* */
	void *dt_droparg;
	dtrace_handle_setopt_f *dt_setopthdlr;
	void *dt_setoptarg;

	/* programs */
	dtrace_prog_t *dt_progs;
	uint64_t dt_nextuarg;

	/* printf into a buffer (system(), freopen()) */
	char *dt_sprintf_buf;
	size_t dt_sprintf_buflen;
	size_t dt_sprintf_len;
	int dt_stdout_fd; /* saved stdout across freopen(), -1 */

	dt_symtab_t *dt_symtab;

	/* the traced processes (-c, -p); the last one is $target */
	int dt_target;
	dt_proc_t dt_procs[DT_PROC_MAX];
	int dt_nprocs;

	/* name of the aggregation whose id record has this uarg (programs) */
	const char *(*dt_aggname)(dtrace_hdl_t *dtp, uint64_t uarg);
	/* variable id of that aggregation (programs; DTRACE_AGGVARIDNONE if unknown) */
	dtrace_aggvarid_t (*dt_aggvarid)(dtrace_hdl_t *dtp, uint64_t uarg);
	/* do two records' uargs come from one D statement?  (programs; else
	 * equal uargs mean one statement, as DTrace's compiler makes them) */
	int (*dt_samestmt)(dtrace_hdl_t *dtp, uint64_t a, uint64_t b);
	/* the type print() recorded for the DIFEXPR record with this uarg, or NULL (programs) */
	const struct dt_ctype *(*dt_printtype)(dtrace_hdl_t *dtp, uint64_t uarg);
};

static inline int
dt_same_stmt(dtrace_hdl_t *dtp, uint64_t a, uint64_t b)
{
	return dtp->dt_samestmt != NULL ? dtp->dt_samestmt(dtp, a, b) : a == b;
}

/* dt_error.c */
int dt_set_errno(dtrace_hdl_t *dtp, int err);
/* -x debug (or DTRACE_DEBUG in the environment): "libdtrace DEBUG: ..." on stderr */
extern int _dtrace_debug;
void dt_dprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* dt_program.c */
void dt_program_free(dtrace_prog_t *pgp);
/* Apply the #pragma D attributes provider of the programs compiled so far to pap. */
void dt_program_pattr(dtrace_hdl_t *dtp, const char *name, dtrace_pattr_t *pap);
int dt_program_errprog(dtrace_hdl_t *dtp);
int dt_program_options(dtrace_hdl_t *dtp);
/* dtrace -lv: argument descriptions' types by the names D gives them ("" unresolved) */
void dt_program_argnames(dtrace_hdl_t *dtp, const dtrace_argdesc_t *ads, int n, char (*names)[DTRACE_ARGTYPELEN]);
int dt_load_libs(dtrace_hdl_t *dtp); /* the D libraries, once (0, or -1 with the error set) */
int dt_probe_lookup_id(dtrace_hdl_t *dtp, dtrace_id_t id, dtrace_probedesc_t *pd);

/* dt_handle.c */
dtrace_hdl_t *dt_handle_create(int version, int flags);
void dt_handle_destroy(dtrace_hdl_t *dtp);
void *dt_alloc(dtrace_hdl_t *dtp, size_t size);
/* A NUL-terminated copy of at most n bytes of s (EDT_NOMEM on failure). */
char *dt_recstr(dtrace_hdl_t *dtp, const char *s, size_t n);
/* The integer in a 1-, 2-, 4- or 8-byte record, sign- (*sv) and zero-extended
 * (*uv); -1 (both 0) for another size. */
int dt_rec_int(const char *addr, size_t size, int64_t *sv, uint64_t *uv);

/*
 * a / b for values from records, which a traced process may have written:
 * 0 when b is 0, and INT64_MIN / -1 (which traps) wraps as two's
 * complement does.
 */
static inline int64_t
dt_sdiv64(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	if (b == -1)
		return (int64_t)(0 - (uint64_t)a);
	return a / b;
}
void *dt_calloc(dtrace_hdl_t *dtp, size_t size);
int64_t dt_gethrtime(void);
int dt_ctl(dtrace_hdl_t *dtp, dtrace_ctl_t cmd, void *arg, int *rv);

/* dt_options.c */
int dt_optval_size(const char *arg, dtrace_optval_t *valp);
int dt_optval_rate(const char *arg, dtrace_optval_t *valp);
int dt_options_load(dtrace_hdl_t *dtp);
void dt_options_defaults(dtrace_hdl_t *dtp);
int dt_option_is_dynamic(const char *name);

/* dt_desc.c: EPID, aggregation and format caches */
int dt_epid_lookup(dtrace_hdl_t *dtp, dtrace_epid_t epid, dtrace_eprobedesc_t **epdp,
		   dtrace_probedesc_t **pdp);
int dt_epid_add(dtrace_hdl_t *dtp, dtrace_epid_t epid, const dtrace_eprobedesc_t *epd,
		const dtrace_probedesc_t *pd);
int dt_aggid_lookup(dtrace_hdl_t *dtp, dtrace_aggid_t aggid, dtrace_aggdesc_t **adp);
int dt_aggid_add(dtrace_hdl_t *dtp, const dtrace_aggdesc_t *agd);
dt_pfargv_t *dt_format_lookup(dtrace_hdl_t *dtp, int format, int printa);
int dt_format_add(dtrace_hdl_t *dtp, int format, const char *str, int printa);
void dt_desc_destroy(dtrace_hdl_t *dtp);

/* dt_printf.c */
#define DT_PRINTF_AGGREGATION 0x1
int dt_printf(dtrace_hdl_t *dtp, FILE *fp, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
int dt_vprintf(dtrace_hdl_t *dtp, FILE *fp, const char *format, va_list ap);
int dt_write(dtrace_hdl_t *dtp, FILE *fp, const char *s, size_t n);
dt_pfargv_t *dt_printf_create(dtrace_hdl_t *dtp, const char *format, int flags);
void dt_printf_destroy(dt_pfargv_t *pfv);
int dt_printf_format(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_recdesc_t *recs,
		     unsigned nrecs, const void *buf, size_t len,
		     const dtrace_aggdata_t **aggsdata, int naggvars);
int dtrace_fprintf(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
		   const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len);
int dtrace_fprinta(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
		   const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len);
int dtrace_system(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
		  const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len);
int dtrace_freopen(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
		   const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len);

/* dt_print.c: record formatters shared by trace(), printa() and printf() */
int dt_print_quantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
		      uint64_t normal);
int dt_print_lquantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
		       uint64_t normal);
int dt_print_llquantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
			uint64_t normal);
uint64_t dt_stddev(const uint64_t *data, uint64_t normal);
int dt_print_bytes(dtrace_hdl_t *dtp, FILE *fp, const char *addr, size_t nbytes, int width,
		   int quiet, int forceraw);
int dt_print_stack(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr, int depth,
		   int size);
int dt_print_ustack(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr,
		    uint64_t arg);
int dt_print_sym(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr);
int dt_print_mod(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr);
int dt_print_usym(dtrace_hdl_t *dtp, FILE *fp, const char *addr, dtrace_actkind_t act);
int dt_print_umod(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr);
int dt_print_datum(dtrace_hdl_t *dtp, FILE *fp, const dtrace_recdesc_t *rec, const char *addr,
		   size_t size, uint64_t normal, int packed);
/* agghist: the header ("key" over keys `width' wide) and one bar of a value. */
/* quantize(), lquantize() or llquantize() data by the aggregating action. */
int dt_print_distribution(dtrace_hdl_t *dtp, FILE *fp, dtrace_actkind_t act, const void *addr,
			  size_t size, uint64_t normal);
int dt_print_quanthdr(dtrace_hdl_t *dtp, FILE *fp, int width);
/* aggpack: the header over the bins and one distribution packed on a line. */
int dt_print_quanthdr_packed(dtrace_hdl_t *dtp, FILE *fp, int width, const dtrace_aggdata_t *aggdata,
			     dtrace_actkind_t action);
int dt_print_quantize_packed(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
			     const dtrace_aggdata_t *aggdata);
int dt_print_lquantize_packed(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
			      const dtrace_aggdata_t *aggdata);
int dt_print_histline(dtrace_hdl_t *dtp, FILE *fp, int64_t val, uint64_t normal, long double total,
		      int positives, int negatives);

/* dt_print_typed.c: print()'s record by its type; bytes used, 0 when not
 * printable by type (print it as trace() would), -1 on error */
int dt_print_typed(dtrace_hdl_t *dtp, FILE *fp, const struct dt_ctype *t, const void *addr,
		   size_t size);

/* dt_aggregate.c */
typedef int dtrace_aggregate_walk_joined_f(const dtrace_aggdata_t **aggsdata, int naggvars,
					   void *arg);
int dt_aggregate_go(dtrace_hdl_t *dtp);
int dt_aggregate_merge(dtrace_hdl_t *dtp, int cpu, const char *buf, size_t size);
int dtrace_aggregate_walk_joined(dtrace_hdl_t *dtp, dtrace_aggvarid_t *aggvars, int naggvars,
				 dtrace_aggregate_walk_joined_f *func, void *arg);
int dt_print_aggs(const dtrace_aggdata_t **aggsdata, int naggvars, void *arg);
int dt_print_agg(const dtrace_aggdata_t *aggdata, void *arg);
void dt_aggregate_destroy(dtrace_hdl_t *dtp);

typedef struct dt_print_aggdata {
	dtrace_hdl_t *dtpa_dtp;
	FILE *dtpa_fp;
	dtrace_aggvarid_t dtpa_id;
	int dtpa_allunprint;
	int dtpa_agghist;                  /* this line is a histogram line (agghist) */
	int dtpa_aggpack;                  /* this line is a packed distribution (aggpack) */
	dtrace_aggvarid_t dtpa_agghisthdr; /* the aggregation whose header is printed */
} dt_print_aggdata_t;

/* dt_consume.c */
int dt_consume_records(dtrace_hdl_t *dtp, FILE *fp, int cpu, const char *buf, size_t size,
		       dtrace_consume_probe_f *pf, dtrace_consume_rec_f *rf, void *arg);
void dt_consume_destroy(dtrace_hdl_t *dtp);

/* dt_status.c */
int dt_handle_cpudrop(dtrace_hdl_t *dtp, int cpu, dtrace_dropkind_t what, uint64_t howmany);
int dt_handle_status(dtrace_hdl_t *dtp, const dtrace_status_t *old, const dtrace_status_t *new);
int dt_handle_err(dtrace_hdl_t *dtp, dtrace_probedata_t *data);
int dt_handle_liberr(dtrace_hdl_t *dtp, const dtrace_probedata_t *data, const char *faultstr);
int dt_handle_setopt(dtrace_hdl_t *dtp, dtrace_setoptdata_t *data);

/* dt_proc.c */
void dt_proc_destroy(dtrace_hdl_t *dtp);

/* dt_symtab.c */
/* Look addr up in process pid (0: this process).  On success fill the
 * object's basename and, when found, the symbol name and its value. */
typedef struct dt_syminfo {
	char dts_object[256];
	char dts_name[256];
	uint64_t dts_value; /* symbol address */
	int dts_hassym;
} dt_syminfo_t;
int dt_symtab_lookup(dtrace_hdl_t *dtp, int pid, uint64_t addr, dt_syminfo_t *sip);
void dt_symtab_destroy(dtrace_hdl_t *dtp);
void dt_symtab_prime(dtrace_hdl_t *dtp, int pid);

#endif /* DT_IMPL_H */
