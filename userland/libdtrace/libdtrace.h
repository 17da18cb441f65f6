/*
 * libdtrace.h: the consumer interface of Portable DTrace.
 *
 * A program that wants to trace opens a handle, compiles D programs, enables
 * them, starts tracing, and then repeatedly sleeps and works: each
 * dtrace_work() call reads the per-CPU principal buffers, formats every
 * record exactly as DTrace does (or hands it to the caller's callbacks), and
 * folds aggregation snapshots into the handle.  The `dtrace` command is one
 * such program; anything else may be another.
 *
 *	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);
 *	dtrace_prog_t *pgp = dtrace_program_strcompile(dtp, "BEGIN { ... }",
 *	    DTRACE_PROBESPEC_NAME, 0, 0, NULL);
 *	dtrace_program_exec(dtp, pgp, &info);
 *	dtrace_go(dtp);
 *	while (dtrace_work(dtp, stdout, NULL, NULL, NULL) == DTRACE_WORKSTATUS_OKAY)
 *		dtrace_sleep(dtp);
 *	dtrace_aggregate_print(dtp, stdout, NULL);
 *	dtrace_close(dtp);
 *
 * Names, types and semantics follow illumos libdtrace so that programs
 * written against it port with little change; the set is smaller.  A handle
 * is used by one thread at a time.
 */
#ifndef LIBDTRACE_H
#define LIBDTRACE_H

#include <stdint.h>
#include <stdio.h>

#include "dtrace_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DTRACE_VERSION 3 /* interface version a client asks dtrace_open() for */

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dtrace_prog dtrace_prog_t;

/* --- Handles and errors ------------------------------------------------ */

/* dtrace_open() flags */
#define DTRACE_O_NODEV 0x01 /* do not reach the core: compile and list only */
#define DTRACE_O_LP64 0x04  /* compile for the LP64 data model (dtrace -64) */
#define DTRACE_O_ILP32 0x08 /* compile for the ILP32 data model (dtrace -32) */

/* Open a handle; NULL with *errp set (an errno or EDT_* value) on failure. */
dtrace_hdl_t *dtrace_open(int version, int flags, int *errp);
void dtrace_close(dtrace_hdl_t *dtp);

/* Library error codes, after the errno range as in DTrace. */
enum {
	EDT_BASE = 1000,
	EDT_VERSION = EDT_BASE, /* client requested version newer than library */
	EDT_COMPILER,           /* error in D program compilation */
	EDT_NOMEM,              /* memory allocation failure */
	EDT_NOPROBE,            /* no probe matches description */
	EDT_BADID,              /* unknown probe identifier */
	EDT_DMISMATCH,          /* data record list does not match statement */
	EDT_DOFFSET,            /* data record offset exceeds buffer boundary */
	EDT_DALIGN,             /* data record has inappropriate alignment */
	EDT_BADOPTNAME,         /* invalid option name */
	EDT_BADOPTVAL,          /* invalid value for specified option */
	EDT_BADOPTCTX,          /* option cannot be used from within a D program */
	EDT_ACTIVE,             /* operation illegal when tracing is active */
	EDT_DESTRUCTIVE,        /* destructive actions not allowed */
	EDT_ENDTOOBIG,          /* END enablings exceed size of principal buffer */
	EDT_BUFTOOSMALL,        /* enabling exceeds size of buffer */
	EDT_BADERROR,           /* invalid library ERROR action */
	EDT_ERRABORT,           /* abort due to error */
	EDT_DROPABORT,          /* abort due to drop */
	EDT_DIRABORT,           /* abort explicitly directed */
	EDT_BADRVAL,            /* invalid return value from callback */
	EDT_BADNORMAL,          /* invalid normalization */
	EDT_BADTRUNC,           /* invalid truncation */
	EDT_BADSETOPT,          /* invalid setopt() library action */
	EDT_BADAGG,             /* unknown aggregating action */
	EDT_BADAGGVAR,          /* invalid aggregation variable identifier */
	EDT_BADSTACKPC,         /* invalid stack program counter size */
	EDT_BRICKED,            /* abort due to systemic unresponsiveness */
	EDT_GNOENT,             /* DTrace device not available on system */
	EDT_ACCESS,             /* DTrace requires additional privileges */
	EDT_BADCONV,            /* incomplete printf conversion */
	EDT_DIFINVAL,           /* DIF program content is invalid */
	EDT_NOTSUP,             /* operation not supported by this build */
	EDT_UNSTABLE,           /* description matches unstable set of probes */
	EDT_VERSINVAL,          /* version is not properly formatted or is too large */
	EDT_VERSUNDEF,          /* requested version is not supported by compiler */
	EDT_VERSREDUCED,        /* requested version conflicts with earlier setting */
	EDT_BADEPID,            /* a record names no enabled probe */
	EDT_BADAGGID,           /* an aggregation record names no aggregation */
	EDT_BADBUF,             /* the core found a buffer's shared state corrupt */
	EDT_MAX
};

int dtrace_errno(dtrace_hdl_t *dtp);
/* Message for an errno or EDT_* value; dtp may be NULL.  For EDT_COMPILER
 * it is the compiler's message for the last failed compilation. */
const char *dtrace_errmsg(dtrace_hdl_t *dtp, int error);
/* DTrace's words for a DTRACEFLT_* fault ("invalid address", ...). */
const char *dtrace_faultstr(dtrace_hdl_t *dtp, int fault);

/* --- Options ------------------------------------------------------------- */

/*
 * Set option `opt' (DTrace's names: bufsize, quiet, aggsortkey, ...) to
 * `val' (NULL for a bare flag).  Sizes take k/m/g/t suffixes, rates and
 * times ns/us/ms/s/m/h/d and hz.  Tracing options may not change once
 * tracing runs, except the dynamic ones (quiet, flowindent, aggsort*,
 * switchrate, aggrate, rawbytes, stackindent).
 */
int dtrace_setopt(dtrace_hdl_t *dtp, const char *opt, const char *val);
/* Current value of a tracing option; DTRACEOPT_UNSET when not set. */
int dtrace_getopt(dtrace_hdl_t *dtp, const char *opt, dtrace_optval_t *val);

/* --- Programs ------------------------------------------------------------ */

/* dtrace_program_*compile() flags: DTrace's DTRACE_C_* values */
#define DTRACE_C_DIFV 0x0001   /* keep DIF for dtrace_program_disassemble (-S) */
#define DTRACE_C_EMPTY 0x0002  /* permit an empty program */
#define DTRACE_C_ZDEFS 0x0004  /* permit descriptions that match no probe (-Z) */
#define DTRACE_C_EATTR 0x0008  /* refuse statements less stable than -x amin */
#define DTRACE_C_CPP 0x0010    /* run the C preprocessor (-C) */
#define DTRACE_C_KNODEF 0x0020 /* permit unresolved kernel symbols (-x knodefs) */
#define DTRACE_C_UNODEF 0x0040 /* permit unresolved user symbols (-x unodefs) */
#define DTRACE_C_PSPEC 0x0080  /* text begins with a probe specifier (-n -P -m -f -i) */
#define DTRACE_C_ETAGS 0x0100  /* prefix errors with their [D_TAG] (-x errtags) */
#define DTRACE_C_ARGREF 0x0200 /* permit unreferenced macro arguments */
#define DTRACE_C_DEFARG 0x0800 /* missing macro arguments read as 0 or "" */
#define DTRACE_C_NOLIBS 0x1000 /* do not read the D library directories (-x nolibs) */

/* What a program is, or what enabling it did. */
typedef struct dtrace_proginfo {
	dtrace_attribute_t dpi_descattr; /* minimum probe description attributes */
	dtrace_attribute_t dpi_stmtattr; /* minimum statement attributes */
	unsigned dpi_aggregates;         /* aggregations in the program */
	unsigned dpi_recgens;            /* record-generating actions */
	unsigned dpi_matches;            /* probes matched (exec: enabled) */
	unsigned dpi_speculations;       /* speculations used */
} dtrace_proginfo_t;

/*
 * Compile D source.  `spec' tells what a bare name in a probe specifier
 * (with DTRACE_C_PSPEC) means: -P provider, -m module, -f function,
 * -n name.  argv[0] is $0, argv[1..] are $1..; NULL on failure with
 * dtrace_errno() == EDT_COMPILER and the compiler's message in
 * dtrace_errmsg().  `#pragma D option' lines take effect as they compile.
 */
dtrace_prog_t *dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s,
					 dtrace_probespec_t spec, unsigned cflags, int argc,
					 char *const argv[]);
dtrace_prog_t *dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, unsigned cflags, int argc,
				       char *const argv[]);
/* Name used for a program compiled from a file in its error messages. */
void dtrace_program_setname(dtrace_prog_t *pgp, const char *name);
/* Enable the program's probes (ENABLE); fills *info when not NULL. */
int dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info);
void dtrace_program_info(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info);
/* Print the DIF of every DIFO in DTrace's -S format (needs DTRACE_C_DIFV). */
void dtrace_program_disassemble(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, FILE *fp);
/*
 * Write the C header for the providers the handle's programs declare
 * (dtrace -h), as DTrace does: PROVIDER_PROBE(args) and
 * PROVIDER_PROBE_ENABLED() macros calling __dtrace_<provider>___<probe>
 * and __dtraceenabled_<provider>___<probe> when _DTRACE_VERSION is set,
 * empty ones otherwise.  fname, when not NULL, names the guard macro.
 * Returns 0, or -1 with errno set when writing fails.
 */
int dtrace_program_header(dtrace_hdl_t *dtp, FILE *out, const char *fname);
/* dtrace -G: check and rewrite the probe sites of the relocatable objects
 * objv[0..objc) against the providers the programs define, and write an
 * object holding their DOF to `file` (dt_link.c).  0, or -1 with the
 * handle's error set. */
int dtrace_program_link(dtrace_hdl_t *dtp, const char *file, int objc, char *const objv[]);
/* Call func for each probe description of the program, in program order. */
typedef int dtrace_pdesc_f(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg);
int dtrace_program_descs(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_pdesc_f *func, void *arg);

/* --- Probes -------------------------------------------------------------- */

typedef int dtrace_probe_f(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg);
/* Call func for each probe matching pdp (NULL: every probe), by id. */
int dtrace_probe_iter(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probe_f *func,
		      void *arg);

/* Stability and argument types of a probe, for dtrace -lv. */
#define DTRACE_PROBEINFO_MAXARGS 16
typedef struct dtrace_probeinfo {
	dtrace_attribute_t dtp_attr; /* name stability */
	dtrace_attribute_t dtp_arga; /* argument stability */
	int dtp_argc;
	char dtp_argv[DTRACE_PROBEINFO_MAXARGS][DTRACE_ARGTYPELEN]; /* argument types as D names them, "" unresolved */
} dtrace_probeinfo_t;
int dtrace_probe_info(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probeinfo_t *pip);

const char *dtrace_stability_name(dtrace_stability_t s);
const char *dtrace_class_name(dtrace_class_t c);

/* --- Tracing ------------------------------------------------------------- */

int dtrace_go(dtrace_hdl_t *dtp);   /* hand options to the core, run BEGIN */
int dtrace_stop(dtrace_hdl_t *dtp); /* run END; consumption continues */

typedef enum dtrace_workstatus {
	DTRACE_WORKSTATUS_ERROR = -1,
	DTRACE_WORKSTATUS_OKAY,
	DTRACE_WORKSTATUS_DONE /* exit() ran, or the run stopped: nothing more will come */
} dtrace_workstatus_t;

/* Returns for the probe and record callbacks. */
#define DTRACE_CONSUME_ERROR -1 /* stop with an error */
#define DTRACE_CONSUME_THIS 0   /* let the library format this probe/record */
#define DTRACE_CONSUME_NEXT 1   /* skip to the next probe/record */
#define DTRACE_CONSUME_ABORT 2  /* stop consuming */

typedef enum dtrace_flowkind {
	DTRACEFLOW_ENTRY,
	DTRACEFLOW_RETURN,
	DTRACEFLOW_NONE
} dtrace_flowkind_t;

/* One firing (EPID record) being consumed. */
typedef struct dtrace_probedata {
	dtrace_hdl_t *dtpda_handle;
	dtrace_eprobedesc_t *dtpda_edesc;
	dtrace_probedesc_t *dtpda_pdesc;
	int dtpda_cpu;
	uint64_t dtpda_timestamp; /* from the record header */
	char *dtpda_data;         /* the record being consumed (whole firing in the probe callback) */
	dtrace_flowkind_t dtpda_flow;
	const char *dtpda_prefix; /* flowindent: " -> ", " <- " or "| " */
	int dtpda_indent;
} dtrace_probedata_t;

typedef int dtrace_consume_probe_f(const dtrace_probedata_t *data, void *arg);
/* rec is NULL once after the last record of a firing. */
typedef int dtrace_consume_rec_f(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec,
				 void *arg);

/* Wait until the next buffer switch, aggregation or status deadline is due. */
void dtrace_sleep(dtrace_hdl_t *dtp);
/* Status, buffers and aggregations, each at its own rate. */
dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pfunc,
				dtrace_consume_rec_f *rfunc, void *arg);
/* Read the principal buffers now and consume them in timestamp order. */
int dtrace_consume(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pfunc,
		   dtrace_consume_rec_f *rfunc, void *arg);
/* Read the core's status (drops, errors, exit); reports through the handlers. */
typedef enum dtrace_status_kind {
	DTRACE_STATUS_NONE,    /* nothing new */
	DTRACE_STATUS_OKAY,    /* status read */
	DTRACE_STATUS_EXITED,  /* exit() has been called */
	DTRACE_STATUS_FILLED,  /* a fill-policy buffer filled */
	DTRACE_STATUS_STOPPED  /* tracing stopped */
} dtrace_status_kind_t;
int dtrace_status(dtrace_hdl_t *dtp);

/* --- Handlers ------------------------------------------------------------ */

#define DTRACE_HANDLE_ABORT -1
#define DTRACE_HANDLE_OK 0

/* An ERROR probe firing (a fault in D) or a library-level fault. */
typedef struct dtrace_errdata {
	dtrace_hdl_t *dteda_handle;
	dtrace_eprobedesc_t *dteda_edesc; /* the faulting enabled probe */
	dtrace_probedesc_t *dteda_pdesc;
	int dteda_cpu;
	int dteda_action; /* 0: predicate */
	int dteda_offset; /* DIF offset, -1 when none */
	int dteda_fault;  /* DTRACEFLT_* */
	uint64_t dteda_addr;
	const char *dteda_msg; /* "error on enabled probe ID ...\n" */
} dtrace_errdata_t;
typedef int dtrace_handle_err_f(const dtrace_errdata_t *data, void *arg);

typedef enum dtrace_dropkind {
	DTRACEDROP_PRINCIPAL,
	DTRACEDROP_AGGREGATION,
	DTRACEDROP_DYNAMIC,
	DTRACEDROP_DYNRINSE,
	DTRACEDROP_DYNDIRTY,
	DTRACEDROP_SPEC,
	DTRACEDROP_SPECBUSY,
	DTRACEDROP_SPECUNAVAIL,
	DTRACEDROP_STKSTROVERFLOW,
	DTRACEDROP_DBLERROR
} dtrace_dropkind_t;

typedef struct dtrace_dropdata {
	dtrace_hdl_t *dtdda_handle;
	int dtdda_cpu; /* DTRACE_CPUALL for state-wide drops */
	dtrace_dropkind_t dtdda_kind;
	uint64_t dtdda_drops; /* new drops */
	uint64_t dtdda_total; /* drops so far */
	const char *dtdda_msg; /* "3 drops on CPU 1\n" */
} dtrace_dropdata_t;
typedef int dtrace_handle_drop_f(const dtrace_dropdata_t *data, void *arg);

/* setopt() from D changed an option. */
typedef struct dtrace_setoptdata {
	dtrace_hdl_t *dtsda_handle;
	const dtrace_probedata_t *dtsda_probe;
	const char *dtsda_option;
	dtrace_optval_t dtsda_oldval;
	dtrace_optval_t dtsda_newval;
} dtrace_setoptdata_t;
typedef int dtrace_handle_setopt_f(const dtrace_setoptdata_t *data, void *arg);

/*
 * Without an error handler, an ERROR firing aborts consumption with
 * EDT_ERRABORT; without a drop handler, drops abort with EDT_DROPABORT.
 * Each may be set once.
 */
int dtrace_handle_err(dtrace_hdl_t *dtp, dtrace_handle_err_f *hdlr, void *arg);
int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_handle_drop_f *hdlr, void *arg);
int dtrace_handle_setopt(dtrace_hdl_t *dtp, dtrace_handle_setopt_f *hdlr, void *arg);

/* --- Aggregations -------------------------------------------------------- */

/* One tuple of one aggregation, merged over CPUs. */
typedef struct dtrace_aggdata {
	dtrace_hdl_t *dtada_handle;
	dtrace_aggdesc_t *dtada_desc;     /* dtagd_name: the name without '@' */
	dtrace_eprobedesc_t *dtada_edesc; /* the enabled probe that aggregates */
	dtrace_probedesc_t *dtada_pdesc;
	char *dtada_data;    /* key records then the value, laid out by dtada_desc */
	uint64_t dtada_normal; /* normalize() factor (1 when none) */
	size_t dtada_size;
	char **dtada_percpu; /* aggpercpu: the value as each CPU holds it, else NULL */
	int dtada_ncpu;      /* entries in dtada_percpu */
	int64_t dtada_total;   /* agghist: the aggregation's total (sorted walks only) */
	uint16_t dtada_minbin; /* aggpack: the aggregation's first and last bins shown */
	uint16_t dtada_maxbin;
	uint32_t dtada_flags; /* DTRACE_A_TOTAL, _MINMAXBIN, _HASPOSITIVES, _HASNEGATIVES */
} dtrace_aggdata_t;

/* dtada_flags, as DTrace numbers them */
#define DTRACE_A_TOTAL 0x0008        /* dtada_total is the aggregation's total */
#define DTRACE_A_MINMAXBIN 0x0010    /* dtada_minbin/maxbin span the aggregation */
#define DTRACE_A_HASNEGATIVES 0x0020 /* some value of the aggregation is negative */
#define DTRACE_A_HASPOSITIVES 0x0040 /* some value of the aggregation is positive */

#define DTRACE_AGGWALK_ERROR -1
#define DTRACE_AGGWALK_NEXT 0
#define DTRACE_AGGWALK_ABORT 1
#define DTRACE_AGGWALK_CLEAR 2       /* zero the value */
#define DTRACE_AGGWALK_NORMALIZE 3   /* apply dtada_normal */
#define DTRACE_AGGWALK_DENORMALIZE 4 /* drop the normalization */
#define DTRACE_AGGWALK_REMOVE 5      /* delete the tuple */

typedef int dtrace_aggregate_f(const dtrace_aggdata_t *aggdata, void *arg);
typedef int dtrace_aggregate_walk_f(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);

/* Fold the CPUs' aggregation buffers into the handle (at most at aggrate). */
int dtrace_aggregate_snap(dtrace_hdl_t *dtp);
/* Print every aggregation not yet printed by printa(), sorted as DTrace. */
int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp, dtrace_aggregate_walk_f *walk);
void dtrace_aggregate_clear(dtrace_hdl_t *dtp);

/* Walks: unsorted, sorted by the aggsort* options, or by a fixed order. */
int dtrace_aggregate_walk(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_sorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keysorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keyrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);

/* --- Processes ----------------------------------------------------------- */

/*
 * -c: start `file' with argv, held until dtrace_proc_continue() (before
 * main, once the program and its libraries are loaded); -p: trace a
 * running process.  Either becomes $target for later compilations; both
 * may be repeated.  Both return the pid, or -1.
 */
int dtrace_proc_create(dtrace_hdl_t *dtp, const char *file, char *const argv[]);
int dtrace_proc_grab(dtrace_hdl_t *dtp, int pid);
int dtrace_proc_continue(dtrace_hdl_t *dtp, int pid);
/* 1 with DTrace's notice ("pid 42 has exited\n") once the process is gone. */
int dtrace_proc_poll(dtrace_hdl_t *dtp, char *msg, size_t len);
/* The number of traced processes not yet reported gone. */
int dtrace_proc_live(dtrace_hdl_t *dtp);

/* --- Formatting helpers ------------------------------------------------- */

/* "mod`sym+0x10" for an address in the traced address space, or "0x...". */
int dtrace_addr2str(dtrace_hdl_t *dtp, uint64_t addr, char *str, int nbytes);
int dtrace_uaddr2str(dtrace_hdl_t *dtp, int pid, uint64_t addr, char *str, int nbytes);

/* "Sun D 1.13": the D language version this library implements. */
extern const char *const dtrace_version_string;

#ifdef __cplusplus
}
#endif

#endif /* LIBDTRACE_H */
