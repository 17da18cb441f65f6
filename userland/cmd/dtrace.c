/*
 * dtrace: the command.  It reads its arguments in passes, as DTrace does:
 * the first settles the mode (-l, -V, -h) and collects the arguments that
 * are not options ($1, $2, ... for the programs); the second sets options
 * and gathers program specifications (-n -P -m -f -i -s); the third starts
 * or names the traced process (-c, -p).  Then every program is compiled,
 * enabled ("dtrace: description 'BEGIN' matched 1 probe"), and the command
 * sleeps and works until exit(), the traced process's end, SIGINT or
 * SIGTERM, after which END fires and the aggregations not yet printed are
 * printed.  Messages, exit codes (0, 1 for errors, 2 for usage) and output
 * layout are DTrace's.
 */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdtrace.h"

#define E_SUCCESS 0
#define E_ERROR 1
#define E_USAGE 2

typedef enum {
	DMODE_VERS, /* -V */
	DMODE_EXEC, /* trace, or -e: compile only */
	DMODE_LIST, /* -l */
	DMODE_HEADER, /* -h */
	DMODE_LINK    /* -G */
} dmode_t;

typedef struct dtrace_cmd {
	void (*dc_func)(struct dtrace_cmd *); /* compiles dc_arg */
	dtrace_probespec_t dc_spec;
	char *dc_arg;
	const char *dc_name; /* for messages: the script or the cropped description */
	const char *dc_desc; /* "script" or "description" */
	dtrace_prog_t *dc_prog;
} dtrace_cmd_t;

/* The leading '+' keeps getopt from permuting: DTrace parses in order and
 * treats the first non-option as the start of $1.. (later options still
 * count).  The leading ':' lets us word the errors as DTrace does. */
static const char DTRACE_OPTSTR[] = "+:3:6:b:c:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";

static char **g_argv;
static int g_argc;
static dtrace_cmd_t *g_cmdv;
static int g_objc;     /* -G: the objects to link */
static char **g_objv;
static int g_cmdc;
static const char *g_pname;
static int g_quiet;
static int g_flowindent;
static volatile sig_atomic_t g_intr;
static volatile sig_atomic_t g_impatient;
static volatile sig_atomic_t g_newline;
static unsigned g_total;
static unsigned g_cflags;
static int g_verbose;
static int g_exec = 1;
static dmode_t g_mode = DMODE_EXEC;
static int g_status = E_SUCCESS;
static const char *g_ofile;
static FILE *g_ofp;
static dtrace_hdl_t *g_dtp;
static int g_pid;
/* Every -c and -p process, in command-line order (DTrace's g_psv). */
static int g_psv[64];
static const char *g_psname[64];
static int g_psc;
static char *g_cmdname; /* -c: the command, for messages */

static int
usage(FILE *fp)
{
	static const char predact[] = "[[ predicate ] action ]";

	(void)fprintf(fp,
	              "Usage: %s [-32|-64] [-CeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
	              "\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
	              "\t[-x opt[=val]] [-X a|c|s|t]\n\n"
	              "\t[-P provider %s]\n"
	              "\t[-m [ provider: ] module %s]\n"
	              "\t[-f [[ provider: ] module: ] func %s]\n"
	              "\t[-n [[[ provider: ] module: ] func: ] name %s]\n"
	              "\t[-i probe-id %s] [ args ... ]\n\n",
	              g_pname, predact, predact, predact, predact, predact);
	(void)fprintf(fp, "\tpredicate -> '/' D-expression '/'\n");
	(void)fprintf(fp, "\t   action -> '{' D-statements '}'\n");
	(void)fprintf(fp, "\n"
	                  "\t-32 generate 32-bit D programs\n"
	                  "\t-64 generate 64-bit D programs\n\n"
	                  "\t-b  set trace buffer size\n"
	                  "\t-c  run specified command and exit upon its completion\n"
	                  "\t-C  run cpp(1) preprocessor on script files\n"
	                  "\t-D  define symbol when invoking preprocessor\n"
	                  "\t-e  exit after compiling request but prior to enabling probes\n"
	                  "\t-f  enable or list probes matching the specified function name\n"
	                  "\t-F  coalesce trace output by function\n"
	                  "\t-G  generate an ELF file containing embedded dtrace program\n"
	                  "\t-h  generate a header file with definitions for static probes\n"
	                  "\t-H  print included files when invoking preprocessor\n"
	                  "\t-i  enable or list probes matching the specified probe id\n"
	                  "\t-I  add include directory to preprocessor search path\n"
	                  "\t-l  list probes matching specified criteria\n"
	                  "\t-L  add library directory to library search path\n"
	                  "\t-m  enable or list probes matching the specified module name\n"
	                  "\t-n  enable or list probes matching the specified probe name\n"
	                  "\t-o  set output file\n"
	                  "\t-p  grab specified process-ID and cache its symbol tables\n"
	                  "\t-P  enable or list probes matching the specified provider name\n"
	                  "\t-q  set quiet mode (only output explicitly traced data)\n"
	                  "\t-s  enable or list probes according to the specified D script\n"
	                  "\t-S  print D compiler intermediate code\n"
	                  "\t-U  undefine symbol when invoking preprocessor\n"
	                  "\t-v  set verbose mode (report stability attributes, arguments)\n"
	                  "\t-V  report DTrace API version\n"
	                  "\t-w  permit destructive actions\n"
	                  "\t-x  enable or modify compiler and tracing options\n"
	                  "\t-X  specify ISO C conformance settings for preprocessor\n"
	                  "\t-Z  permit probe descriptions that match zero probes\n");
	return E_USAGE;
}

static void
verror(const char *fmt, va_list ap)
{
	int error = errno;

	(void)fprintf(stderr, "%s: ", g_pname);
	(void)vfprintf(stderr, fmt, ap);
	if (fmt[strlen(fmt) - 1] != '\n')
		(void)fprintf(stderr, ": %s\n", strerror(error));
}

static void __attribute__((format(printf, 1, 2), noreturn))
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	if (g_dtp != NULL)
		dtrace_close(g_dtp);
	exit(E_ERROR);
}

/* A libdtrace failure: the message, then the library's reason. */
static void __attribute__((format(printf, 1, 2), noreturn))
dfatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)fprintf(stderr, "%s: ", g_pname);
	if (fmt != NULL)
		(void)vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (fmt != NULL && fmt[strlen(fmt) - 1] != '\n')
		(void)fprintf(stderr, ": %s\n", dtrace_errmsg(g_dtp, dtrace_errno(g_dtp)));
	else if (fmt == NULL)
		(void)fprintf(stderr, "%s\n", dtrace_errmsg(g_dtp, dtrace_errno(g_dtp)));
	if (g_dtp != NULL)
		dtrace_close(g_dtp);
	exit(E_ERROR);
}

static void __attribute__((format(printf, 1, 2)))
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

/* Informational messages; -q or the quiet option silence them. */
static void __attribute__((format(printf, 1, 2)))
notice(const char *fmt, ...)
{
	va_list ap;

	if (g_quiet)
		return;
	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 1, 2)))
oprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g_ofp == NULL)
		return;
	va_start(ap, fmt);
	n = vfprintf(g_ofp, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (errno != EINTR)
			fatal("failed to write to %s", g_ofile ? g_ofile : "<stdout>");
		clearerr(g_ofp);
	}
}

/* -c "cmd args": split on white space as DTrace does. */
static char **
make_argv(char *s)
{
	const char *ws = "\f\n\r\t\v ";
	char **argv = malloc(sizeof(char *) * (strlen(s) / 2 + 2));
	int argc = 0;
	char *p;

	if (argv == NULL)
		return NULL;
	for (p = strtok(s, ws); p != NULL; p = strtok(NULL, ws))
		argv[argc++] = p;
	if (argc == 0)
		argv[argc++] = s;
	argv[argc] = NULL;
	return argv;
}

static void
print_attr(const char *title, dtrace_attribute_t a)
{
	oprintf("\n\t%s\n", title);
	oprintf("\t\tIdentifier Names: %s\n", dtrace_stability_name(a.dtat_name));
	oprintf("\t\tData Semantics:   %s\n", dtrace_stability_name(a.dtat_data));
	oprintf("\t\tDependency Class: %s\n", dtrace_class_name(a.dtat_class));
}

static void
print_probe_info(const dtrace_probeinfo_t *p)
{
	int i;

	print_attr("Probe Description Attributes", p->dtp_attr);
	print_attr("Argument Attributes", p->dtp_arga);
	oprintf("\n\tArgument Types\n");
	for (i = 0; i < p->dtp_argc; i++)
		oprintf("\t\targs[%d]: %s\n", i, p->dtp_argv[i][0] != '\0' ? p->dtp_argv[i] : "(unknown)");
	if (p->dtp_argc == 0)
		oprintf("\t\tNone\n");
	oprintf("\n");
}

static int
list_probe(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	dtrace_probeinfo_t p;

	(void)arg;
	oprintf("%5d %10s %17s %33s %s\n", pdp->dtpd_id, pdp->dtpd_provider, pdp->dtpd_mod,
	        pdp->dtpd_func, pdp->dtpd_name);
	if (g_verbose && dtrace_probe_info(dtp, pdp, &p) == 0)
		print_probe_info(&p);
	return g_intr != 0;
}

static int
list_desc(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	(void)arg;
	if (dtrace_probe_iter(dtp, pdp, list_probe, NULL) != 0 && !g_intr)
		error("failed to match %s:%s:%s:%s: %s\n", pdp->dtpd_provider, pdp->dtpd_mod,
		      pdp->dtpd_func, pdp->dtpd_name, dtrace_errmsg(dtp, dtrace_errno(dtp)));
	return 0;
}

/* -v with -e: each description's probe, with its attributes and arguments. */
static int
info_desc(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	dtrace_probeinfo_t p;

	(void)arg;
	oprintf("\n%s:%s:%s:%s\n", pdp->dtpd_provider, pdp->dtpd_mod, pdp->dtpd_func,
	        pdp->dtpd_name);
	if (dtrace_probe_info(dtp, pdp, &p) == 0)
		print_probe_info(&p);
	return 0;
}

/* Enable a program (or, with -e, only describe it). */
static void
exec_prog(const dtrace_cmd_t *dcp)
{
	dtrace_proginfo_t dpi;

	if (!g_exec) {
		dtrace_program_info(g_dtp, dcp->dc_prog, &dpi);
	} else if (dtrace_program_exec(g_dtp, dcp->dc_prog, &dpi) == -1) {
		dfatal("failed to enable '%s'", dcp->dc_name);
	} else {
		notice("%s '%s' matched %u probe%s\n", dcp->dc_desc, dcp->dc_name, dpi.dpi_matches,
		       dpi.dpi_matches == 1 ? "" : "s");
	}

	if (g_verbose) {
		oprintf("\nStability attributes for %s %s:\n", dcp->dc_desc, dcp->dc_name);
		print_attr("Minimum Probe Description Attributes", dpi.dpi_descattr);
		print_attr("Minimum Statement Attributes", dpi.dpi_stmtattr);
		if (!g_exec)
			(void)dtrace_program_descs(g_dtp, dcp->dc_prog, info_desc, NULL);
		else
			oprintf("\n");
	}
	g_total += dpi.dpi_matches;
}

static void
compile_file(dtrace_cmd_t *dcp)
{
	char *arg0 = g_argv[0];
	FILE *fp;

	if ((fp = fopen(dcp->dc_arg, "r")) == NULL)
		fatal("failed to open %s", dcp->dc_arg);
	/* $0 is the script's name */
	g_argv[0] = dcp->dc_arg;
	if ((dcp->dc_prog = dtrace_program_fcompile(g_dtp, fp, g_cflags, g_argc, g_argv)) == NULL)
		dfatal("failed to compile script %s", dcp->dc_arg);
	g_argv[0] = arg0;
	(void)fclose(fp);
	dcp->dc_desc = "script";
	dcp->dc_name = dcp->dc_arg;
}

static void
compile_str(dtrace_cmd_t *dcp)
{
	char *p;

	if ((dcp->dc_prog = dtrace_program_strcompile(g_dtp, dcp->dc_arg, dcp->dc_spec,
	                                              g_cflags | DTRACE_C_PSPEC, g_argc, g_argv)) ==
	    NULL)
		dfatal("invalid probe specifier %s", dcp->dc_arg);
	/* "description 'syscall::read:entry' matched ...": the probes, not the body */
	if ((p = strpbrk(dcp->dc_arg, "{/;")) != NULL)
		*p = '\0';
	dcp->dc_desc = "description";
	dcp->dc_name = dcp->dc_arg;
}

/* A message the library worded completely, newline included. */
static void
libmsg(const char *msg)
{
	(void)fprintf(stderr, "%s: %s", g_pname, msg);
}

static int
errhandler(const dtrace_errdata_t *data, void *arg)
{
	(void)arg;
	libmsg(data->dteda_msg);
	return DTRACE_HANDLE_OK;
}

static int
drophandler(const dtrace_dropdata_t *data, void *arg)
{
	(void)arg;
	libmsg(data->dtdda_msg);
	return DTRACE_HANDLE_OK;
}

static int
setopthandler(const dtrace_setoptdata_t *data, void *arg)
{
	(void)arg;
	if (strcmp(data->dtsda_option, "quiet") == 0)
		g_quiet = data->dtsda_newval != DTRACEOPT_UNSET;
	if (strcmp(data->dtsda_option, "flowindent") == 0)
		g_flowindent = data->dtsda_newval != DTRACEOPT_UNSET;
	return DTRACE_HANDLE_OK;
}

/* After each firing's records: the newline that ends its line. */
static int
chewrec(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec, void *arg)
{
	(void)arg;
	if (rec == NULL) {
		if (!g_quiet)
			oprintf("\n");
		return DTRACE_CONSUME_NEXT;
	}
	if (rec->dtrd_action == DTRACEACT_EXIT) {
		g_status = *(const int32_t *)data->dtpda_data;
		return DTRACE_CONSUME_NEXT;
	}
	return DTRACE_CONSUME_THIS;
}

/* Before each firing's records: "CPU ID FUNCTION:NAME" and the prefix. */
static int
chew(const dtrace_probedata_t *data, void *arg)
{
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;
	static int heading;

	(void)arg;
	if (g_impatient) {
		g_newline = 0;
		return DTRACE_CONSUME_ABORT;
	}
	if (heading == 0) {
		if (!g_flowindent) {
			if (!g_quiet)
				oprintf("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		} else {
			oprintf("%3s %-41s\n", "CPU", "FUNCTION");
		}
		heading = 1;
	}
	if (!g_flowindent) {
		if (!g_quiet) {
			char name[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

			(void)snprintf(name, sizeof(name), "%s:%s", pd->dtpd_func, pd->dtpd_name);
			oprintf("%3d %6d %32s ", data->dtpda_cpu, pd->dtpd_id, name);
		}
	} else {
		/* as deep as the indentation goes: the name is never cut short */
		size_t len = (size_t)data->dtpda_indent + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 8;
		char *name = malloc(len);

		if (name == NULL)
			fatal("failed to allocate memory");
		if (data->dtpda_flow == DTRACEFLOW_NONE)
			(void)snprintf(name, len, "%*s%s%s:%s", data->dtpda_indent, "",
			               data->dtpda_prefix, pd->dtpd_func, pd->dtpd_name);
		else
			(void)snprintf(name, len, "%*s%s%s", data->dtpda_indent, "", data->dtpda_prefix,
			               pd->dtpd_func);
		oprintf("%3d %-41s ", data->dtpda_cpu, name);
		free(name);
	}
	return DTRACE_CONSUME_THIS;
}

/*
 * Start tracing, then say which buffers the core made smaller and which
 * rates it changed, in DTrace's words.
 */
static void
go(void)
{
	static const struct {
		const char *name;
		const char *optname;
	} bufs[] = {{"buffer size", "bufsize"},
	            {"aggregation size", "aggsize"},
	            {"speculation size", "specsize"},
	            {"dynamic variable size", "dynvarsize"}},
	  rates[] = {{"cleaning rate", "cleanrate"}, {"status rate", "statusrate"}};
	dtrace_optval_t bufval[4], rateval[2];
	size_t i;

	for (i = 0; i < 4; i++) {
		if (dtrace_getopt(g_dtp, bufs[i].optname, &bufval[i]) == -1)
			fatal("couldn't get option %s", bufs[i].optname);
	}
	for (i = 0; i < 2; i++) {
		if (dtrace_getopt(g_dtp, rates[i].optname, &rateval[i]) == -1)
			fatal("couldn't get option %s", rates[i].optname);
	}

	if (dtrace_go(g_dtp) == -1)
		dfatal("could not enable tracing");

	for (i = 0; i < 4; i++) {
		dtrace_optval_t j = 0, mul = 10, nsize;

		if (bufval[i] == DTRACEOPT_UNSET)
			continue;
		(void)dtrace_getopt(g_dtp, bufs[i].optname, &nsize);
		if (nsize == DTRACEOPT_UNSET || nsize == 0 ||
		    nsize >= bufval[i] - (dtrace_optval_t)sizeof(uint64_t))
			continue;
		for (; (INT64_C(1) << mul) <= nsize; j++, mul += 10)
			continue;
		if (!(nsize & ((INT64_C(1) << (mul - 10)) - 1)))
			error("%s lowered to %lld%c\n", bufs[i].name, (long long)nsize >> (mul - 10),
			      " kmgtpe"[j]);
		else
			error("%s lowered to %lld bytes\n", bufs[i].name, (long long)nsize);
	}

	for (i = 0; i < 2; i++) {
		dtrace_optval_t nval;
		const char *dir;

		if (rateval[i] == DTRACEOPT_UNSET)
			continue;
		(void)dtrace_getopt(g_dtp, rates[i].optname, &nval);
		if (nval == DTRACEOPT_UNSET || nval == 0 || nval == rateval[i])
			continue;
		dir = nval > rateval[i] ? "reduced" : "increased";
		if (nval <= DTRACE_NANOSEC && (DTRACE_NANOSEC % nval) == 0)
			error("%s %s to %lld hz\n", rates[i].name, dir,
			      (long long)(DTRACE_NANOSEC / nval));
		else if ((nval % DTRACE_NANOSEC) == 0)
			error("%s %s to once every %lld seconds\n", rates[i].name, dir,
			      (long long)(nval / DTRACE_NANOSEC));
		else
			error("%s %s to once every %lld nanoseconds\n", rates[i].name, dir,
			      (long long)nval);
	}
}

static void
intr(int signo)
{
	(void)signo;
	if (!g_intr)
		g_newline = 1;
	if (g_intr++)
		g_impatient = 1;
}

static void
installsighands(void)
{
	struct sigaction act, oact;

	(void)sigemptyset(&act.sa_mask);
	act.sa_flags = 0;
	act.sa_handler = intr;
	/* keep a SIG_IGN we inherited (nohup, background jobs) */
	if (sigaction(SIGINT, NULL, &oact) == 0 && oact.sa_handler != SIG_IGN)
		(void)sigaction(SIGINT, &act, NULL);
	if (sigaction(SIGTERM, NULL, &oact) == 0 && oact.sa_handler != SIG_IGN)
		(void)sigaction(SIGTERM, &act, NULL);
}

/*
 * The passes over argv: options, with the arguments that are not options
 * in between.  DTrace's getopt simply goes on from optind after each such
 * argument, so after "--" only the argument that follows is taken as one
 * and options are read again after it.  glibc's getopt remembers a "--"
 * and keeps handing back the argument after it (and dtrace looped over it
 * for ever); so every scan after an argument starts afresh from the next
 * one: getopt on argv shifted, optind 0 to reset its state.
 */
static int g_optbase; /* the scan reads argv + g_optbase (its [0] unused) */

static void
opt_restart(int from)
{
	g_optbase = from - 1;
	optind = 0;
}

static int
opt_next(int argc, char *argv[])
{
	return getopt(argc - g_optbase, argv + g_optbase, DTRACE_OPTSTR);
}

/* The index in argv of the next argument the scan would read. */
static int
opt_index(void)
{
	/* before the first getopt() call optind is still 0: the scan's start */
	return g_optbase + (optind == 0 ? 1 : optind);
}

/* getopt() errors, worded as DTrace's getopt words them. */
static int
badopt(int c)
{
	if (c == ':')
		(void)fprintf(stderr, "%s: option requires an argument -- %c\n", g_pname, optopt);
	else
		(void)fprintf(stderr, "%s: illegal option -- %c\n", g_pname, optopt);
	return usage(stderr);
}

/*
 * -G: the objects are the arguments that are not options; the output is
 * -o's file, else the script's name with .o for .d, else d.out.
 */
static void
link_objects(void)
{
	const char *file = g_ofile, *name = g_cmdc > 0 ? g_cmdv[0].dc_arg : "";
	char *ofile = NULL, *p;

	if (g_cmdc == 0) {
		(void)fprintf(stderr, "%s: -G requires one or more scripts or enabling options\n",
		              g_pname);
		g_status = E_USAGE;
		return;
	}
	if (file == NULL && g_cmdc == 1 && g_cmdv[0].dc_func == compile_file &&
	    (p = strrchr(name, '.')) != NULL && strcmp(p, ".d") == 0) {
		const char *base = strrchr(name, '/');

		base = base != NULL ? base + 1 : name;
		if ((ofile = malloc(strlen(base) + 1)) == NULL)
			fatal("failed to allocate memory");
		strcpy(ofile, base);
		strcpy(strrchr(ofile, '.'), ".o");
		file = ofile;
	}
	if (file == NULL)
		file = "d.out";
	if (dtrace_program_link(g_dtp, file, g_objc, g_objv) != 0)
		dfatal("failed to link script %s", name);
	free(ofile);
}

int
main(int argc, char *argv[])
{
	dtrace_optval_t opt;
	dtrace_cmd_t *dcp;
	int done = 0, mode = 0, oflags = 0, err, i, c;
	char *p, **v, *hfile = NULL;

	g_ofp = stdout;
	g_pname = basename(argv[0]);
	opterr = 0;

	if (argc == 1)
		return usage(stderr);

	if ((g_argv = malloc(sizeof(char *) * (size_t)(argc + 1))) == NULL ||
	    (g_cmdv = calloc((size_t)argc, sizeof(dtrace_cmd_t))) == NULL)
		fatal("failed to allocate memory for arguments");
	g_argv[g_argc++] = argv[0]; /* $0 */

	/* Pass 1: the mode, and the arguments that are not options. */
	for (opt_restart(1); opt_index() < argc; opt_restart(opt_index() + 1)) {
		while ((c = opt_next(argc, argv)) != -1) {
			switch (c) {
			case '3':
			case '6':
				/* -32 and -64 are options 3 and 6 with the argument 2 and 4 */
				if (strcmp(optarg, c == '3' ? "2" : "4") != 0) {
					(void)fprintf(stderr, "%s: illegal option -- %c%s\n", g_pname, c, optarg);
					return usage(stderr);
				}
				oflags &= ~(DTRACE_O_LP64 | DTRACE_O_ILP32);
				oflags |= c == '3' ? DTRACE_O_ILP32 : DTRACE_O_LP64;
				break;
			case 'e':
				g_exec = 0;
				done = 1;
				break;
			case 'h':
				g_mode = DMODE_HEADER;
				g_cflags |= DTRACE_C_ZDEFS; /* -h implies -Z */
				g_exec = 0;
				mode++;
				break;
			case 'G':
				g_mode = DMODE_LINK;
				g_cflags |= DTRACE_C_ZDEFS; /* -G implies -Z */
				g_exec = 0;
				mode++;
				break;
			case 'l':
				g_mode = DMODE_LIST;
				g_cflags |= DTRACE_C_ZDEFS; /* -l implies -Z */
				mode++;
				break;
			case 'V':
				g_mode = DMODE_VERS;
				mode++;
				break;
			case ':':
			case '?':
				return badopt(c);
			default:
				break;
			}
		}
		if (opt_index() < argc)
			g_argv[g_argc++] = argv[opt_index()];
	}
	g_argv[g_argc] = NULL;
	if (g_mode == DMODE_LINK) {
		/* -G: the arguments are the objects, not the programs' $1.. */
		g_objc = g_argc - 1;
		g_objv = g_argv + 1;
		g_argc = 1;
	}

	if (mode > 1) {
		(void)fprintf(stderr, "%s: only one of the [-GhlV] options can be specified at a time\n",
		              g_pname);
		return E_USAGE;
	}
	if (g_mode == DMODE_VERS)
		return printf("%s: %s\n", g_pname, dtrace_version_string) <= 0;

	/* Without tracing (-e, -h) a core helps probe matching but is not needed. */
	while ((g_dtp = dtrace_open(DTRACE_VERSION, oflags, &err)) == NULL) {
		if (!(oflags & DTRACE_O_NODEV) && !g_exec) {
			oflags |= DTRACE_O_NODEV;
			continue;
		}
		fatal("failed to initialize dtrace: %s\n", dtrace_errmsg(NULL, err));
	}

	(void)dtrace_setopt(g_dtp, "bufsize", "4m");
	(void)dtrace_setopt(g_dtp, "aggsize", "4m");

	/* Pass 2: options, and the programs to compile. */
	for (opt_restart(1); opt_index() < argc; opt_restart(opt_index() + 1)) {
		while ((c = opt_next(argc, argv)) != -1) {
			switch (c) {
			case 'b':
				if (dtrace_setopt(g_dtp, "bufsize", optarg) != 0)
					dfatal("failed to set -b %s", optarg);
				break;
			case 'C':
				g_cflags |= DTRACE_C_CPP;
				break;
			case 'D':
				if (dtrace_setopt(g_dtp, "define", optarg) != 0)
					dfatal("failed to set -D %s", optarg);
				break;
			case 'f':
			case 'i':
			case 'm':
			case 'n':
			case 'P':
				dcp = &g_cmdv[g_cmdc++];
				dcp->dc_func = compile_str;
				dcp->dc_spec = c == 'f'   ? DTRACE_PROBESPEC_FUNC
				               : c == 'm' ? DTRACE_PROBESPEC_MOD
				               : c == 'P' ? DTRACE_PROBESPEC_PROVIDER
				                          : DTRACE_PROBESPEC_NAME;
				dcp->dc_arg = optarg;
				break;
			case 'F':
				if (dtrace_setopt(g_dtp, "flowindent", NULL) != 0)
					dfatal("failed to set -F");
				break;
			case 'H':
				if (dtrace_setopt(g_dtp, "cpphdrs", NULL) != 0)
					dfatal("failed to set -H");
				break;
			case 'I':
				if (dtrace_setopt(g_dtp, "incdir", optarg) != 0)
					dfatal("failed to set -I %s", optarg);
				break;
			case 'L':
				if (dtrace_setopt(g_dtp, "libdir", optarg) != 0)
					dfatal("failed to set -L %s", optarg);
				break;
			case 'q':
				if (dtrace_setopt(g_dtp, "quiet", NULL) != 0)
					dfatal("failed to set -q");
				break;
			case 'o':
				g_ofile = optarg;
				break;
			case 's':
				dcp = &g_cmdv[g_cmdc++];
				dcp->dc_func = compile_file;
				dcp->dc_spec = DTRACE_PROBESPEC_NONE;
				dcp->dc_arg = optarg;
				break;
			case 'S':
				g_cflags |= DTRACE_C_DIFV;
				break;
			case 'U':
				if (dtrace_setopt(g_dtp, "undef", optarg) != 0)
					dfatal("failed to set -U %s", optarg);
				break;
			case 'v':
				g_verbose++;
				break;
			case 'w':
				if (dtrace_setopt(g_dtp, "destructive", NULL) != 0)
					dfatal("failed to set -w");
				break;
			case 'x':
				if ((p = strchr(optarg, '=')) != NULL)
					*p++ = '\0';
				if (dtrace_setopt(g_dtp, optarg, p) != 0)
					dfatal("failed to set -x %s", optarg);
				break;
			case 'X':
				if (dtrace_setopt(g_dtp, "stdc", optarg) != 0)
					dfatal("failed to set -X %s", optarg);
				break;
			case 'Z':
				g_cflags |= DTRACE_C_ZDEFS;
				break;
			default:
				break;
			}
		}
	}

	/* Pass 3: the traced process, which programs see as $target. */
	for (opt_restart(1); opt_index() < argc; opt_restart(opt_index() + 1)) {
		while ((c = opt_next(argc, argv)) != -1) {
			switch (c) {
			case 'c':
				if ((v = make_argv(optarg)) == NULL)
					fatal("failed to allocate memory");
				if ((g_pid = dtrace_proc_create(g_dtp, v[0], v)) == -1)
					dfatal(NULL);
				g_cmdname = v[0];
				if (g_psc < (int)(sizeof(g_psv) / sizeof(g_psv[0]))) {
					g_psname[g_psc] = v[0];
					g_psv[g_psc++] = g_pid;
				}
				free(v);
				break;
			case 'p':
				errno = 0;
				g_pid = (int)strtol(optarg, &p, 10);
				if (errno != 0 || p == optarg || p[0] != '\0')
					fatal("invalid pid: %s\n", optarg);
				if (dtrace_proc_grab(g_dtp, g_pid) == -1)
					dfatal(NULL);
				if (g_psc < (int)(sizeof(g_psv) / sizeof(g_psv[0]))) {
					g_psname[g_psc] = NULL;
					g_psv[g_psc++] = g_pid;
				}
				break;
			default:
				break;
			}
		}
	}

	/* Pass 4: compile. */
	for (i = 0; i < g_cmdc; i++) {
		g_cmdv[i].dc_func(&g_cmdv[i]);
		if (g_cflags & DTRACE_C_DIFV)
			dtrace_program_disassemble(g_dtp, g_cmdv[i].dc_prog, stderr);
	}

	if (g_mode != DMODE_LIST) {
		if (dtrace_handle_err(g_dtp, errhandler, NULL) == -1)
			dfatal("failed to establish error handler");
		if (dtrace_handle_drop(g_dtp, drophandler, NULL) == -1)
			dfatal("failed to establish drop handler");
		if (dtrace_handle_setopt(g_dtp, setopthandler, NULL) == -1)
			dfatal("failed to establish setopt handler");
	}

	(void)dtrace_getopt(g_dtp, "flowindent", &opt);
	g_flowindent = opt != DTRACEOPT_UNSET;
	(void)dtrace_getopt(g_dtp, "quiet", &opt);
	g_quiet = opt != DTRACEOPT_UNSET;

	switch (g_mode) {
	case DMODE_EXEC:
		if (g_ofile != NULL && (g_ofp = fopen(g_ofile, "a")) == NULL)
			fatal("failed to open output file '%s'", g_ofile);
		for (i = 0; i < g_cmdc; i++)
			exec_prog(&g_cmdv[i]);
		if (done) {
			dtrace_close(g_dtp);
			return g_status;
		}
		break;

	case DMODE_LIST:
		if (g_ofile != NULL && (g_ofp = fopen(g_ofile, "a")) == NULL)
			fatal("failed to open output file '%s'", g_ofile);
		installsighands();
		oprintf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
		for (i = 0; i < g_cmdc; i++)
			(void)dtrace_program_descs(g_dtp, g_cmdv[i].dc_prog, list_desc, NULL);
		if (g_cmdc == 0)
			(void)dtrace_probe_iter(g_dtp, NULL, list_probe, NULL);
		dtrace_close(g_dtp);
		return g_status;

	case DMODE_HEADER:
		if (g_cmdc == 0) {
			(void)fprintf(stderr, "%s: -h requires one or more scripts or enabling options\n",
			              g_pname);
			dtrace_close(g_dtp);
			return E_USAGE;
		}
		if (g_ofile == NULL) {
			if (g_cmdc > 1) {
				(void)fprintf(stderr,
				              "%s: -h requires an output file if multiple scripts are "
				              "specified\n",
				              g_pname);
				dtrace_close(g_dtp);
				return E_USAGE;
			}
			if ((p = strrchr(g_cmdv[0].dc_arg, '.')) == NULL || strcmp(p, ".d") != 0) {
				(void)fprintf(stderr,
				              "%s: -h requires an output file if no scripts are "
				              "specified\n",
				              g_pname);
				dtrace_close(g_dtp);
				return E_USAGE;
			}
		}
		if (g_ofile == NULL) {
			/* x.d gives x.h in the current directory, as DTrace does */
			const char *base = strrchr(g_cmdv[0].dc_arg, '/');
			base = base != NULL ? base + 1 : g_cmdv[0].dc_arg;
			if ((hfile = malloc(strlen(base) + 1)) == NULL)
				fatal("failed to allocate memory");
			strcpy(hfile, base);
			strcpy(strrchr(hfile, '.'), ".h");
			g_ofile = hfile;
		}
		if ((g_ofp = fopen(g_ofile, "w")) == NULL)
			fatal("failed to open header file '%s'", g_ofile);
		oprintf("/*\n * Generated by dtrace(1M).\n */\n\n");
		if (dtrace_program_header(g_dtp, g_ofp, g_ofile) != 0 || fclose(g_ofp) == EOF)
			fatal("failed to create header file %s", g_ofile);
		g_ofp = NULL;
		free(hfile);
		dtrace_close(g_dtp);
		return g_status;

	case DMODE_LINK:
		link_objects();
		dtrace_close(g_dtp);
		return g_status;

	case DMODE_VERS:
		break;
	}

	if (g_total == 0 && !(g_cflags & DTRACE_C_ZDEFS))
		dfatal("no probes %s\n", g_cmdc ? "matched" : "specified");

	go();

	(void)dtrace_getopt(g_dtp, "flowindent", &opt);
	g_flowindent = opt != DTRACEOPT_UNSET;
	(void)dtrace_getopt(g_dtp, "quiet", &opt);
	g_quiet = opt != DTRACEOPT_UNSET;
	(void)dtrace_getopt(g_dtp, "destructive", &opt);
	if (opt != DTRACEOPT_UNSET)
		notice("allowing destructive actions\n");

	installsighands();

	/* Now that tracing runs, let the -c commands start. */
	for (i = 0; i < g_psc; i++)
		if (dtrace_proc_continue(g_dtp, g_psv[i]) != 0)
			dfatal("failed to execute %s", g_psname[i] != NULL ? g_psname[i] : g_cmdname);

	do {
		char msg[128];

		if (!g_intr && !done)
			dtrace_sleep(g_dtp);

		if (g_newline) {
			/* after ^C, even in quiet mode */
			oprintf("\n");
			g_newline = 0;
		}

		/* Each process that goes is reported; tracing ends with the
		 * last one. */
		while (g_psc > 0 && dtrace_proc_poll(g_dtp, msg, sizeof(msg))) {
			if (!g_quiet)
				libmsg(msg);
			if (dtrace_proc_live(g_dtp) == 0)
				done = 1;
		}

		if (done || g_intr) {
			done = 1;
			if (dtrace_stop(g_dtp) == -1)
				dfatal("couldn't stop tracing");
		}

		switch (dtrace_work(g_dtp, g_ofp, chew, chewrec, NULL)) {
		case DTRACE_WORKSTATUS_DONE:
			done = 1;
			break;
		case DTRACE_WORKSTATUS_OKAY:
			break;
		default:
			if (!g_impatient && dtrace_errno(g_dtp) != EINTR)
				dfatal("processing aborted");
		}

		if (g_ofp != NULL && fflush(g_ofp) == EOF)
			clearerr(g_ofp);
	} while (!done);

	oprintf("\n");

	if (!g_impatient) {
		if (dtrace_aggregate_print(g_dtp, g_ofp, NULL) == -1 && dtrace_errno(g_dtp) != EINTR)
			dfatal("failed to print aggregations");
	}

	dtrace_close(g_dtp);
	return g_status;
}
