/*
 * dt_options.c: DTrace's options, as one table.
 *
 * Each option has a kind that says when it may change and who uses it:
 *   COMPILE  read by the compiler (cpp, zdefs, errtags, ...) or by the
 *            consumer's bookkeeping (aggpercpu); settable any time;
 *   RUNTIME  handed to the core at dtrace_go() (bufsize, nspec, ...);
 *            frozen once tracing is active;
 *   DYNAMIC  read by the consumer while it formats (quiet, aggsortkey,
 *            switchrate, ...); settable while tracing, also by setopt().
 * and a parser that says how its value is written: sizes with k/m/g/t,
 * times with ns/us/ms/s/m/h/d or hz, booleans, buffer policies.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dt_compile.h"
#include "dt_impl.h"

typedef enum {
	DT_OPT_COMPILE,
	DT_OPT_RUNTIME,
	DT_OPT_DYNAMIC
} dt_optkind_t;

typedef int dt_optfunc_t(dtrace_hdl_t *dtp, const char *arg, uintptr_t option);

typedef struct dt_option {
	const char *o_name;
	dt_optkind_t o_kind;
	dt_optfunc_t *o_func;
	uintptr_t o_option;
} dt_option_t;

int
dt_optval_size(const char *arg, dtrace_optval_t *valp)
{
	dtrace_optval_t mul = 1;
	size_t len = strlen(arg);
	unsigned long long v;
	char *end;

	if (len == 0)
		return -1;

	switch (arg[len - 1]) {
	case 't':
	case 'T':
		mul *= 1024;
		/* FALLTHROUGH */
	case 'g':
	case 'G':
		mul *= 1024;
		/* FALLTHROUGH */
	case 'm':
	case 'M':
		mul *= 1024;
		/* FALLTHROUGH */
	case 'k':
	case 'K':
		mul *= 1024;
		/* FALLTHROUGH */
	default:
		break;
	}

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno != 0 || end == arg || (mul > 1 && end != &arg[len - 1]) ||
	    (mul == 1 && *end != '\0'))
		return -1;
	if (v > (unsigned long long)INT64_MAX / (unsigned long long)mul)
		return -1;
	*valp = (dtrace_optval_t)v * mul;
	if (*valp == DTRACEOPT_UNSET)
		return -1;
	return 0;
}

int
dt_optval_rate(const char *arg, dtrace_optval_t *valp)
{
	static const struct {
		const char *name;
		int64_t mul; /* 0: a frequency */
	} suffix[] = {
		{"ns", 1},
		{"nsec", 1},
		{"us", 1000},
		{"usec", 1000},
		{"ms", 1000000},
		{"msec", 1000000},
		{"s", DTRACE_NANOSEC},
		{"sec", DTRACE_NANOSEC},
		{"m", DTRACE_NANOSEC * 60},
		{"min", DTRACE_NANOSEC * 60},
		{"h", DTRACE_NANOSEC * 60 * 60},
		{"hour", DTRACE_NANOSEC * 60 * 60},
		{"d", DTRACE_NANOSEC * 24 * 60 * 60},
		{"day", DTRACE_NANOSEC * 24 * 60 * 60},
		{"hz", 0},
	};
	int64_t mul = 1;
	unsigned long long v;
	char *end;
	size_t i;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno != 0 || end == arg || v > INT64_MAX)
		return -1;

	if (*end != '\0') {
		for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
			if (strcasecmp(suffix[i].name, end) == 0)
				break;
		}
		if (i == sizeof(suffix) / sizeof(suffix[0]))
			return -1;
		mul = suffix[i].mul;
	}

	if (mul == 0) {
		*valp = v != 0 ? DTRACE_NANOSEC / (int64_t)v : 0;
	} else {
		if (mul > 1 && v > (unsigned long long)(INT64_MAX / mul))
			return -1;
		*valp = (int64_t)v * mul;
	}
	return 0;
}

static int
dt_opt_runtime(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const struct {
		const char *positive;
		const char *negative;
	} couples[] = {
		{"yes", "no"},     {"enable", "disable"}, {"enabled", "disabled"},
		{"true", "false"}, {"on", "off"},         {"set", "unset"},
	};
	dtrace_optval_t val = 0;
	unsigned long long v;
	char *end;
	size_t i;

	if (arg != NULL) {
		if (arg[0] == '\0') {
			val = DTRACEOPT_UNSET;
			goto out;
		}
		for (i = 0; i < sizeof(couples) / sizeof(couples[0]); i++) {
			if (strcasecmp(couples[i].positive, arg) == 0) {
				val = 1;
				goto out;
			}
			if (strcasecmp(couples[i].negative, arg) == 0) {
				val = DTRACEOPT_UNSET;
				goto out;
			}
		}
		errno = 0;
		v = strtoull(arg, &end, 0);
		if (*end != '\0' || errno != 0 || v > INT64_MAX)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		val = (dtrace_optval_t)v;
	}
out:
	dtp->dt_options[option] = val;
	return 0;
}

static int
dt_opt_size(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	dtrace_optval_t val = 0;

	if (arg != NULL && dt_optval_size(arg, &val) != 0)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_options[option] = val;
	return 0;
}

static int
dt_opt_strsize(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	dtrace_optval_t val = 0;

	if (arg != NULL && dt_optval_size(arg, &val) != 0)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (val > UINT_MAX)
		return dt_set_errno(dtp, EOVERFLOW);
	dtp->dt_options[option] = val;
	return 0;
}

static int
dt_opt_rate(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	dtrace_optval_t val = 0;

	if (arg != NULL && dt_optval_rate(arg, &val) != 0)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_options[option] = val;
	return 0;
}

static int
dt_opt_bufpolicy(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const struct {
		const char *name;
		int policy;
	} policies[] = {
		{"ring", DTRACEOPT_BUFPOLICY_RING},
		{"fill", DTRACEOPT_BUFPOLICY_FILL},
		{"switch", DTRACEOPT_BUFPOLICY_SWITCH},
	};
	size_t i;

	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (strcmp(policies[i].name, arg) == 0) {
			dtp->dt_options[option] = policies[i].policy;
			return 0;
		}
	}
	return dt_set_errno(dtp, EDT_BADOPTVAL);
}

static int
dt_opt_bufresize(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg != NULL && strcmp(arg, "auto") == 0)
		dtp->dt_options[option] = DTRACEOPT_BUFRESIZE_AUTO;
	else if (arg != NULL && strcmp(arg, "manual") == 0)
		dtp->dt_options[option] = DTRACEOPT_BUFRESIZE_MANUAL;
	else
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	return 0;
}

static int
dt_opt_cflags(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_cflags |= (unsigned)option;
	return 0;
}

static int
dt_opt_agg(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_aggregate.dtat_flags |= (int)option;
	return 0;
}

static int
dt_opt_droptags(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	(void)option;
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_droptags = 1;
	return 0;
}

static int
dt_opt_encoding(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	(void)option;
	if (arg != NULL && strcmp(arg, "ascii") == 0)
		dtp->dt_encoding = DT_ENCODING_ASCII;
	else if (arg != NULL && strcmp(arg, "utf8") == 0)
		dtp->dt_encoding = DT_ENCODING_UTF8;
	else
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	return 0;
}

static int
dt_cpp_add_arg(dtrace_hdl_t *dtp, const char *prefix, const char *arg)
{
	size_t len = strlen(prefix) + strlen(arg) + 1;
	char **argv = realloc(dtp->dt_cpp_argv, sizeof(char *) * (size_t)(dtp->dt_cpp_argc + 1));
	char *s;

	if (argv == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_cpp_argv = argv;
	if ((s = malloc(len)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	(void)strcpy(s, prefix);
	(void)strcat(s, arg);
	argv[dtp->dt_cpp_argc++] = s;
	return 0;
}

/* -D, -U, -I: the option value becomes one preprocessor argument. */
static int
dt_opt_cpp_opts(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	return dt_cpp_add_arg(dtp, (const char *)option, arg);
}

static int
dt_opt_cpp_hdrs(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	(void)option;
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	return dt_cpp_add_arg(dtp, "-H", "");
}

static int
dt_opt_cpp_path(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	char *cpp;

	(void)option;
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	if ((cpp = strdup(arg)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	free(dtp->dt_cpp_path);
	dtp->dt_cpp_path = cpp;
	return 0;
}

/*
 * -x version=M.m[.u]: programs compiled from now on may use only what D had
 * in that version.  As in DTrace, the version may only go down.
 */
static int
dt_opt_version(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	uint32_t v, cur = dtp->dt_vmax != 0 ? dtp->dt_vmax : DT_VERS_LATEST;

	(void)option;
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dt_version_str2num(arg, &v) != 0)
		return dt_set_errno(dtp, EDT_VERSINVAL);
	if (!dt_version_defined(v))
		return dt_set_errno(dtp, EDT_VERSUNDEF);
	if (v > cur)
		return dt_set_errno(dtp, EDT_VERSREDUCED);
	dtp->dt_vmax = v;
	return 0;
}

/*
 * The compile-time options that steer code generation, the preprocessor,
 * linking, libraries and the -c process.  Each refuses what DTrace's
 * dt_opt_* refuses, in the same order (a value where none is taken, none
 * where one is needed, then the context: EDT_BADOPTCTX from a #pragma for
 * those a running compilation can no longer honour).
 */

/* -x core: the process dumps core when it exits, to debug libdtrace. */
static void
dt_coredump(void)
{
	static const char msg[] = "libdtrace DEBUG: [ forcing coredump ]\n";
	struct sigaction act;
	struct rlimit lim;

	(void)write(STDERR_FILENO, msg, sizeof(msg) - 1);
	memset(&act, 0, sizeof(act));
	act.sa_handler = SIG_DFL;
	(void)sigemptyset(&act.sa_mask);
	(void)sigaction(SIGABRT, &act, NULL);
	lim.rlim_cur = RLIM_INFINITY;
	lim.rlim_max = RLIM_INFINITY;
	(void)setrlimit(RLIMIT_CORE, &lim);
	abort();
}

static int
dt_opt_core(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static int enabled;

	(void)option;
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (enabled++ || atexit(dt_coredump) == 0)
		return 0;
	return dt_set_errno(dtp, errno);
}

/* -x ctypes=file, -x dtypes=file: where the program's C and D types go. */
static int
dt_opt_typesfile(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	int *fdp = option ? &dtp->dt_ddefs_fd : &dtp->dt_cdefs_fd;
	int fd;

	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if ((fd = open(arg, O_CREAT | O_WRONLY, 0666)) == -1)
		return dt_set_errno(dtp, errno);
	if (*fdp != -1)
		(void)close(*fdp);
	*fdp = fd;
	return 0;
}

static int
dt_opt_debug(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	(void)option;
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	_dtrace_debug = 1;
	return 0;
}

/* An option whose value is one of a few words, each an int in the handle. */
typedef struct dt_optword {
	const char *name;
	int value;
} dt_optword_t;

static int
dt_opt_word(dtrace_hdl_t *dtp, const char *arg, const dt_optword_t *words, size_t n,
	    int (*cmp)(const char *, const char *), int *valp)
{
	size_t i;

	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	for (i = 0; i < n; i++) {
		if (cmp(words[i].name, arg) == 0) {
			*valp = words[i].value;
			return 0;
		}
	}
	return dt_set_errno(dtp, EDT_BADOPTVAL);
}

/*
 * -x evaltime: where a -c process stops for the programs to be evaluated.
 * On the Linux host a created process is held in its agent's constructor:
 * after the program and the libraries it links are loaded, before main and
 * before the program's own constructors run.  That point serves every
 * value DTrace offers (exec, preinit, postinit, main): the probes of main
 * and of everything after it are in place when it runs, and libraries that
 * constructors load later get their probes as they load.  The one
 * difference from DTrace is that under `exec` the linked libraries are
 * already there to match.
 */
static int
dt_opt_evaltime(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const dt_optword_t words[] = {
		{"exec", DT_PROC_STOP_CREATE},
		{"preinit", DT_PROC_STOP_PREINIT},
		{"postinit", DT_PROC_STOP_POSTINIT},
		{"main", DT_PROC_STOP_MAIN},
	};

	(void)option;
	return dt_opt_word(dtp, arg, words, sizeof(words) / sizeof(words[0]), strcmp, &dtp->dt_prcmode);
}

/* -x late: translators applied when compiling (static) or when tracing (dynamic). */
static int
dt_opt_xlate(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const dt_optword_t words[] = {
		{"dynamic", DT_XL_DYNAMIC},
		{"static", DT_XL_STATIC},
	};

	(void)option;
	return dt_opt_word(dtp, arg, words, sizeof(words) / sizeof(words[0]), strcmp, &dtp->dt_xlatemode);
}

/* -x linkmode: which symbols get relocations rather than compile-time values. */
static int
dt_opt_linkmode(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const dt_optword_t words[] = {
		{"kernel", DT_LINK_KERNEL},
		{"primary", DT_LINK_PRIMARY},
		{"dynamic", DT_LINK_DYNAMIC},
		{"static", DT_LINK_STATIC},
	};

	(void)option;
	return dt_opt_word(dtp, arg, words, sizeof(words) / sizeof(words[0]), strcmp, &dtp->dt_linkmode);
}

/* -x linktype: what -G writes (the word in any case, as DTrace compares it). */
static int
dt_opt_linktype(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const dt_optword_t words[] = {
		{"elf", DT_LTYP_ELF},
		{"dof", DT_LTYP_DOF},
	};

	(void)option;
	return dt_opt_word(dtp, arg, words, sizeof(words) / sizeof(words[0]), strcasecmp,
			   &dtp->dt_linktype);
}

/* -x stdc, -X: the ISO C conformance of the preprocessor (dt_parse.c). */
static int
dt_opt_stdc(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const dt_optword_t words[] = {
		{"a", DT_STDC_XA},
		{"c", DT_STDC_XC},
		{"s", DT_STDC_XS},
		{"t", DT_STDC_XT},
	};

	(void)option;
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	return dt_opt_word(dtp, arg, words, sizeof(words) / sizeof(words[0]), strcmp, &dtp->dt_stdcmode);
}

/*
 * -x iregs, tregs, tree, pgmax: a count, read as atoi() reads it, as
 * DTrace does ("8k" is 8); iregs, tregs and tree must be positive
 * (DTrace's dt_opt_iregs, dt_opt_tregs, dt_opt_tree).
 */
static int
dt_opt_count(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	static const struct {
		size_t off;
		int min;
	} counts[] = {
		{offsetof(dtrace_hdl_t, dt_iregs), 1},
		{offsetof(dtrace_hdl_t, dt_tregs), 1},
		{offsetof(dtrace_hdl_t, dt_pgmax), 0},
		{offsetof(dtrace_hdl_t, dt_treedump), 1},
	};
	int n;

	if (arg == NULL || (n = atoi(arg)) < counts[option].min)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	*(int *)((char *)dtp + counts[option].off) = n;
	return 0;
}

/* -x lazyload: takes any value or none, as DTrace's does. */
static int
dt_opt_lazyload(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	(void)arg;
	(void)option;
	dtp->dt_lazyload = 1;
	return 0;
}

/* -x ldpath: the link editor -G would run. */
static int
dt_opt_ld_path(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	char *ld;

	(void)option;
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	if ((ld = strdup(arg)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	free(dtp->dt_ld_path);
	dtp->dt_ld_path = ld;
	return 0;
}

/*
 * -x libdir (-L) adds a D library directory after the others; -x syslibdir
 * replaces the system's, which is always read last (dt_program.c).
 */
static int
dt_opt_libdir(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	char **dirs, *dir;

	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if ((dir = strdup(arg)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (option) {
		free(dtp->dt_libdirs[0]);
		dtp->dt_libdirs[0] = dir;
		return 0;
	}
	if ((dirs = realloc(dtp->dt_libdirs, sizeof(char *) * (size_t)(dtp->dt_nlibdirs + 1))) == NULL) {
		free(dir);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	dtp->dt_libdirs = dirs;
	dirs[dtp->dt_nlibdirs++] = dir;
	return 0;
}

/* -x kdefs, udefs: the opposite of knodefs, unodefs. */
static int
dt_opt_invcflags(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_cflags &= ~(unsigned)option;
	return 0;
}

static int
dt_opt_dflags(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	if (arg != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	dtp->dt_dflags |= (unsigned)option;
	return 0;
}

/*
 * -x setenv=NAME=value, -x unsetenv=NAME: the environment of the processes
 * -c starts.  A #pragma comes too late for them.
 *
 * Which variables go is DTrace's rule (dt_opt_setenv): every variable whose
 * name (all of it, up to its '=') begins the option's argument, so
 * unsetenv=PATH takes PATH and also P or PA, and setenv=X=1 takes X and
 * any variable named "" .  A variable taken is replaced in its slot by the
 * last one, which is not looked at again, and a variable set goes last.
 */
static int
dt_opt_setenv(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	char **env = dtp->dt_proc_env, **nenv, *var;
	size_t n, i;

	if (dtp->dt_inprog)
		return dt_set_errno(dtp, EDT_BADOPTCTX);
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (!option && strchr(arg, '=') != NULL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);

	for (n = 0; env[n] != NULL; n++)
		continue;
	for (i = 0; env[i] != NULL; i++) {
		size_t namelen = strcspn(env[i], "=");

		if (strncmp(env[i], arg, namelen) != 0)
			continue;
		free(env[i]);
		env[i] = env[n - 1];
		env[--n] = NULL;
		if (i == n)
			break; /* the last one went: nothing is left past it */
	}
	if (!option)
		return 0;
	if ((var = strdup(arg)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((nenv = realloc(env, sizeof(char *) * (n + 2))) == NULL) {
		free(var);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	nenv[n] = var;
	nenv[n + 1] = NULL;
	dtp->dt_proc_env = nenv;
	return 0;
}

/*
 * -x amin=attributes: statements less stable are compile errors
 * (D_ATTR_MIN).  A #pragma D option amin changes only its own program,
 * which the compiler sees to (dt_parse.c).
 */
static int
dt_opt_amin(dtrace_hdl_t *dtp, const char *arg, uintptr_t option)
{
	dtrace_attribute_t attr;

	(void)option;
	if (arg == NULL || dt_str2attr(arg, &attr) != 0)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	if (!dtp->dt_inprog) {
		dtp->dt_cflags |= DTRACE_C_EATTR;
		dtp->dt_amin = attr;
	}
	return 0;
}

/* Sorted by name within each kind, as DTrace lists them. */
static const dt_option_t dt_options[] = {
	/* compile-time and consumer bookkeeping */
	{"aggpercpu", DT_OPT_COMPILE, dt_opt_agg, DTRACE_A_PERCPU},
	{"amin", DT_OPT_COMPILE, dt_opt_amin, 0},
	{"argref", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_ARGREF},
	{"cpp", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_CPP},
	{"cpphdrs", DT_OPT_COMPILE, dt_opt_cpp_hdrs, 0},
	{"cpppath", DT_OPT_COMPILE, dt_opt_cpp_path, 0},
	{"defaultargs", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_DEFARG},
	{"define", DT_OPT_COMPILE, dt_opt_cpp_opts, (uintptr_t) "-D"},
	{"droptags", DT_OPT_COMPILE, dt_opt_droptags, 0},
	{"empty", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_EMPTY},
	{"encoding", DT_OPT_COMPILE, dt_opt_encoding, 0},
	{"errtags", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_ETAGS},
	{"incdir", DT_OPT_COMPILE, dt_opt_cpp_opts, (uintptr_t) "-I"},
	{"pspec", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_PSPEC},
	{"undef", DT_OPT_COMPILE, dt_opt_cpp_opts, (uintptr_t) "-U"},
	{"verbose", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_DIFV},
	{"version", DT_OPT_COMPILE, dt_opt_version, 0},
	{"zdefs", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_ZDEFS},

	/* code generation, preprocessor, libraries, linking, -c processes */
	{"core", DT_OPT_COMPILE, dt_opt_core, 0},
	{"ctypes", DT_OPT_COMPILE, dt_opt_typesfile, 0},
	{"debug", DT_OPT_COMPILE, dt_opt_debug, 0},
	{"dtypes", DT_OPT_COMPILE, dt_opt_typesfile, 1},
	{"evaltime", DT_OPT_COMPILE, dt_opt_evaltime, 0},
	{"iregs", DT_OPT_COMPILE, dt_opt_count, 0},
	{"kdefs", DT_OPT_COMPILE, dt_opt_invcflags, DTRACE_C_KNODEF},
	{"knodefs", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_KNODEF},
	{"late", DT_OPT_COMPILE, dt_opt_xlate, 0},
	{"lazyload", DT_OPT_COMPILE, dt_opt_lazyload, 0},
	{"ldpath", DT_OPT_COMPILE, dt_opt_ld_path, 0},
	{"libdir", DT_OPT_COMPILE, dt_opt_libdir, 0},
	{"linkmode", DT_OPT_COMPILE, dt_opt_linkmode, 0},
	{"linktype", DT_OPT_COMPILE, dt_opt_linktype, 0},
	{"nolibs", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_NOLIBS},
	{"pgmax", DT_OPT_COMPILE, dt_opt_count, 2},
	{"setenv", DT_OPT_COMPILE, dt_opt_setenv, 1},
	{"stdc", DT_OPT_COMPILE, dt_opt_stdc, 0},
	{"strip", DT_OPT_COMPILE, dt_opt_dflags, DTRACE_D_STRIP},
	{"syslibdir", DT_OPT_COMPILE, dt_opt_libdir, 1},
	{"tree", DT_OPT_COMPILE, dt_opt_count, 3},
	{"tregs", DT_OPT_COMPILE, dt_opt_count, 1},
	{"udefs", DT_OPT_COMPILE, dt_opt_invcflags, DTRACE_C_UNODEF},
	{"unodefs", DT_OPT_COMPILE, dt_opt_cflags, DTRACE_C_UNODEF},
	{"unsetenv", DT_OPT_COMPILE, dt_opt_setenv, 0},

	/* handed to the core at dtrace_go() */
	{"aggsize", DT_OPT_RUNTIME, dt_opt_size, DTRACEOPT_AGGSIZE},
	{"bufpolicy", DT_OPT_RUNTIME, dt_opt_bufpolicy, DTRACEOPT_BUFPOLICY},
	{"bufresize", DT_OPT_RUNTIME, dt_opt_bufresize, DTRACEOPT_BUFRESIZE},
	{"bufsize", DT_OPT_RUNTIME, dt_opt_size, DTRACEOPT_BUFSIZE},
	{"cleanrate", DT_OPT_RUNTIME, dt_opt_rate, DTRACEOPT_CLEANRATE},
	{"cpu", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_CPU},
	{"destructive", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_DESTRUCTIVE},
	{"dynvarsize", DT_OPT_RUNTIME, dt_opt_size, DTRACEOPT_DYNVARSIZE},
	{"grabanon", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_GRABANON},
	{"jstackframes", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_JSTACKFRAMES},
	{"jstackstrsize", DT_OPT_RUNTIME, dt_opt_size, DTRACEOPT_JSTACKSTRSIZE},
	{"nspec", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_NSPEC},
	{"specsize", DT_OPT_RUNTIME, dt_opt_size, DTRACEOPT_SPECSIZE},
	{"stackframes", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_STACKFRAMES},
	{"statusrate", DT_OPT_RUNTIME, dt_opt_rate, DTRACEOPT_STATUSRATE},
	{"strsize", DT_OPT_RUNTIME, dt_opt_strsize, DTRACEOPT_STRSIZE},
	{"temporal", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_TEMPORAL},
	{"ustackframes", DT_OPT_RUNTIME, dt_opt_runtime, DTRACEOPT_USTACKFRAMES},

	/* read by the consumer as it runs */
	{"agghist", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGHIST},
	{"aggpack", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGPACK},
	{"aggrate", DT_OPT_DYNAMIC, dt_opt_rate, DTRACEOPT_AGGRATE},
	{"aggsortkey", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGSORTKEY},
	{"aggsortkeypos", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGSORTKEYPOS},
	{"aggsortpos", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGSORTPOS},
	{"aggsortrev", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGSORTREV},
	{"aggzoom", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_AGGZOOM},
	{"flowindent", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_FLOWINDENT},
	{"quiet", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_QUIET},
	{"rawbytes", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_RAWBYTES},
	{"stackindent", DT_OPT_DYNAMIC, dt_opt_runtime, DTRACEOPT_STACKINDENT},
	{"switchrate", DT_OPT_DYNAMIC, dt_opt_rate, DTRACEOPT_SWITCHRATE},
};

static const dt_option_t *
dt_option_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(dt_options) / sizeof(dt_options[0]); i++) {
		if (strcmp(dt_options[i].o_name, name) == 0)
			return &dt_options[i];
	}
	return NULL;
}

int
dt_option_is_dynamic(const char *name)
{
	const dt_option_t *op = dt_option_lookup(name);

	return op != NULL && op->o_kind == DT_OPT_DYNAMIC;
}

int
dtrace_setopt(dtrace_hdl_t *dtp, const char *opt, const char *val)
{
	const dt_option_t *op;

	if (opt == NULL)
		return dt_set_errno(dtp, EINVAL);
	if ((op = dt_option_lookup(opt)) == NULL)
		return dt_set_errno(dtp, EDT_BADOPTNAME);
	if (op->o_kind == DT_OPT_RUNTIME && dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	return op->o_func(dtp, val, op->o_option);
}

int
dtrace_getopt(dtrace_hdl_t *dtp, const char *opt, dtrace_optval_t *val)
{
	const dt_option_t *op;

	if (opt == NULL)
		return dt_set_errno(dtp, EINVAL);
	/* Only options with a value in dt_options can be read back. */
	if ((op = dt_option_lookup(opt)) == NULL || op->o_kind == DT_OPT_COMPILE)
		return dt_set_errno(dtp, EDT_BADOPTNAME);
	*val = dtp->dt_options[op->o_option];
	return 0;
}

/*
 * The consumer paces itself by three rates even when the user set none;
 * these are the values the core applies to unset options.
 */
void
dt_options_defaults(dtrace_hdl_t *dtp)
{
	static const struct {
		int opt;
		dtrace_optval_t val;
	} defaults[] = {
		{DTRACEOPT_SWITCHRATE, DTRACE_SWITCHRATE_DEFAULT},
		{DTRACEOPT_AGGRATE, DTRACE_AGGRATE_DEFAULT},
		{DTRACEOPT_STATUSRATE, DTRACE_STATUSRATE_DEFAULT},
		{DTRACEOPT_STRSIZE, DTRACE_STRSIZE_DEFAULT},
		{DTRACEOPT_STACKFRAMES, DTRACE_STACKFRAMES_DEFAULT},
		{DTRACEOPT_USTACKFRAMES, DTRACE_USTACKFRAMES_DEFAULT},
		{DTRACEOPT_BUFPOLICY, DTRACEOPT_BUFPOLICY_SWITCH},
		{DTRACEOPT_CPU, DTRACE_CPUALL},
	};
	size_t i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		if (dtp->dt_options[defaults[i].opt] == DTRACEOPT_UNSET)
			dtp->dt_options[defaults[i].opt] = defaults[i].val;
	}
}

/*
 * After GO, read back the options the core settled on (it may have lowered
 * buffer sizes or clamped rates): DOFGET hands back the state's options as
 * an OPTDESC section.
 */
int
dt_options_load(dtrace_hdl_t *dtp)
{
	dof_hdr_t hdr, *dof;
	const dof_sec_t *sec;
	uint64_t offs;
	uint32_t i;

	memset(&hdr, 0, sizeof(hdr));
	hdr.dofh_loadsz = sizeof(hdr);
	if (dt_ctl(dtp, DTRACE_CTL_DOFGET, &hdr, NULL) != 0)
		return -1;
	if (hdr.dofh_loadsz < sizeof(hdr))
		return dt_set_errno(dtp, EINVAL);
	if ((dof = dt_calloc(dtp, hdr.dofh_loadsz)) == NULL)
		return -1;
	dof->dofh_loadsz = hdr.dofh_loadsz;
	if (dt_ctl(dtp, DTRACE_CTL_DOFGET, dof, NULL) != 0) {
		free(dof);
		return -1;
	}

	for (i = 0; i < dof->dofh_secnum; i++) {
		uint64_t soff = dof->dofh_secoff + (uint64_t)i * dof->dofh_secsize;

		if (soff + sizeof(dof_sec_t) > dof->dofh_loadsz)
			break;
		sec = (const dof_sec_t *)((const char *)dof + soff);
		if (sec->dofs_type != DOF_SECT_OPTDESC || sec->dofs_entsize == 0)
			continue;
		for (offs = 0; offs + sizeof(dof_optdesc_t) <= sec->dofs_size &&
			       sec->dofs_offset + offs + sizeof(dof_optdesc_t) <= dof->dofh_loadsz;
		     offs += sec->dofs_entsize) {
			const dof_optdesc_t *opt =
			    (const dof_optdesc_t *)((const char *)dof + sec->dofs_offset + offs);

			if (opt->dofo_strtab != DOF_SECIDX_NONE || opt->dofo_option >= DTRACEOPT_MAX)
				continue;
			dtp->dt_options[opt->dofo_option] = (dtrace_optval_t)opt->dofo_value;
		}
	}
	free(dof);
	return 0;
}
