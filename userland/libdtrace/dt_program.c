/*
 * dt_program.c: D programs, between the compiler (dt_compile.h) and the
 * core.  Compiling hands the compiler this handle's options, preprocessor
 * arguments and a window on the core (probe matching, argument types,
 * #pragma options); enabling hands the DOF to the core.  Each program gets
 * its own range of uarg cookies, so a record's dtrd_uarg leads back to the
 * program and action that made it (aggregation names come that way).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dt_compile.h"
#include "dt_errtags.h"
#include "dt_impl.h"

static const char dt_errprog_text[] = "dtrace:::ERROR"
                                      "{"
                                      "\ttrace(arg1);"
                                      "\ttrace(arg2);"
                                      "\ttrace(arg3);"
                                      "\ttrace(arg4);"
                                      "\ttrace(arg5);"
                                      "}";

/* --- What the compiler asks of the consumer ------------------------------ */

/* The pid of a "pid<digits>" provider name, or 0. */
static int
dt_pid_provider(const char *prov)
{
	char *end;
	long pid;

	if (strncmp(prov, "pid", 3) != 0 || prov[3] < '1' || prov[3] > '9')
		return 0;
	pid = strtol(prov + 3, &end, 10);
	return *end == '\0' && pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
}

/*
 * A pid provider names its process: DTrace grabs a process it is not yet
 * tracing when a program names its pid provider (dt_pid_create_probes),
 * so its probes can be made.  A failure leaves the description matching
 * nothing; probe_why says why.
 */
static void
dt_pid_prepare(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp)
{
	int pid = dt_pid_provider(pdp->dtpd_provider);

	if (pid == 0 || dtp->dt_backend->proc_grab == NULL)
		return;
	for (int i = 0; i < dtp->dt_nprocs; i++)
		if (dtp->dt_procs[i].dpr_pid == pid)
			return;
	(void)dtrace_proc_grab(dtp, pid);
}

/* pid<N>:a.out:... names the executable by its file name, as DTrace's
 * dt_pid_fix_mod rewrites it. */
static void
dt_cops_probe_fix(void *arg, dtrace_probedesc_t *pdp)
{
	dtrace_hdl_t *dtp = arg;
	int pid = dt_pid_provider(pdp->dtpd_provider);
	char path[64], exe[4096], *base;
	ssize_t n;

	if (pid == 0 || strcmp(pdp->dtpd_mod, "a.out") != 0)
		return;
	dt_pid_prepare(dtp, pdp);
	if (dtp->dt_backend->proc_exe != NULL) {
		if (dtp->dt_backend->proc_exe(pid, exe, sizeof(exe)) != 0 || exe[0] == '\0')
			return;
	} else {
		(void)snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		if ((n = readlink(path, exe, sizeof(exe) - 1)) <= 0)
			return;
		exe[n] = '\0';
	}
	base = strrchr(exe, '/');
	base = base != NULL ? base + 1 : exe;
	if (strlen(base) < sizeof(pdp->dtpd_mod))
		memcpy(pdp->dtpd_mod, base, strlen(base) + 1);
}

static int
dt_cops_probe_why(void *arg, const dtrace_probedesc_t *pdp, char *buf, size_t len)
{
	dtrace_hdl_t *dtp = arg;
	int pid = dt_pid_provider(pdp->dtpd_provider);

	if (pid == 0 || dtp->dt_backend->pid_why == NULL)
		return 0;
	switch (dtp->dt_backend->pid_why(pid, buf, len)) {
	case DT_PID_WHY_OFF:
		return D_PROC_OFF;
	case DT_PID_WHY_ALIGN:
		return D_PROC_ALIGN;
	case DT_PID_WHY_NAME:
		return D_PROC_NAME;
	case DT_PID_WHY_FUNC:
		return D_PROC_FUNC;
	case DT_PID_WHY_GRAB:
		return D_PROC_GRAB;
	case DT_PID_WHY_CREATEFAIL:
		return D_PROC_CREATEFAIL;
	default:
		return 0;
	}
}

static int
dt_cops_probe_match(void *arg, const dtrace_probedesc_t *pdp, dtrace_probedesc_t *first)
{
	dtrace_hdl_t *dtp = arg;
	dtrace_probedesc_t pd;
	/* starting from DTRACE_IDNONE lets providers create the probes asked for */
	dtrace_id_t id = DTRACE_IDNONE;
	int count = 0;

	dt_pid_prepare(dtp, pdp);
	if (pdp->dtpd_id != DTRACE_IDNONE) {
		if (dt_probe_lookup_id(dtp, pdp->dtpd_id, &pd) != 0)
			return dtp->dt_errno == ESRCH || dtp->dt_errno == ENOENT ? 0 : -1;
		if (first != NULL)
			*first = pd;
		return 1;
	}
	for (;;) {
		pd = *pdp;
		pd.dtpd_id = id;
		if (dt_ctl(dtp, DTRACE_CTL_PROBEMATCH, &pd, NULL) != 0) {
			if (dtp->dt_errno == ESRCH || dtp->dt_errno == ENOENT)
				break;
			return -1;
		}
		if (count++ == 0 && first != NULL)
			*first = pd;
		if (pd.dtpd_id < id)
			break;
		id = pd.dtpd_id + 1;
	}
	return count;
}

static int
dt_cops_probe_arg(void *arg, dtrace_argdesc_t *adp)
{
	dtrace_hdl_t *dtp = arg;

	return dt_ctl(dtp, DTRACE_CTL_PROBEARG, adp, NULL) == 0 ? 0 : -1;
}

/* The #pragma D attributes provider of the programs compiled so far, oldest first. */
static void
dt_program_pattr_list(const dtrace_prog_t *pgp, const char *name, dtrace_pattr_t *pap)
{
	if (pgp == NULL)
		return;
	dt_program_pattr_list(pgp->dp_next, name, pap);
	for (size_t i = 0; i < pgp->dp_cprog->nprvattrs; i++) {
		const dt_cprvattr_t *a = &pgp->dp_cprog->prvattrs[i];
		dtrace_attribute_t *p[] = {&pap->dtpa_provider, &pap->dtpa_mod, &pap->dtpa_func,
		                           &pap->dtpa_name, &pap->dtpa_args};
		if (strcmp(a->name, name) == 0 && a->part >= 0 && a->part < 5)
			*p[a->part] = a->attr;
	}
}

void
dt_program_pattr(dtrace_hdl_t *dtp, const char *name, dtrace_pattr_t *pap)
{
	dt_program_pattr_list(dtp->dt_progs, name, pap);
}

static int
dt_cops_provider_attr(void *arg, const char *name, dtrace_pattr_t *pap)
{
	dtrace_hdl_t *dtp = arg;
	dtrace_providerdesc_t pvd;

	memset(&pvd, 0, sizeof(pvd));
	(void)snprintf(pvd.dtvd_name, sizeof(pvd.dtvd_name), "%s", name);
	if (dt_ctl(dtp, DTRACE_CTL_PROVIDER, &pvd, NULL) != 0)
		return -1;
	*pap = pvd.dtvd_attr;
	dt_program_pattr(dtp, name, pap);
	return 0;
}

static int
dt_cops_setopt(void *arg, const char *name, const char *value, char *errbuf, size_t errlen)
{
	dtrace_hdl_t *dtp = arg;

	int r;

	dtp->dt_inprog = 1;
	r = dtrace_setopt(dtp, name, value);
	dtp->dt_inprog = 0;
	if (r == 0)
		return 0;
	(void)snprintf(errbuf, errlen, "%s", dtrace_errmsg(dtp, dtrace_errno(dtp)));
	return -1;
}

/* --- Programs ------------------------------------------------------------ */

static const char *
dt_program_aggname(dtrace_hdl_t *dtp, uint64_t uarg)
{
	dtrace_prog_t *pgp;

	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		const dt_caction_t *act = dt_cprog_action(pgp->dp_cprog, uarg);

		if (act != NULL && act->agg >= 0 && (size_t)act->agg < pgp->dp_cprog->naggs)
			return pgp->dp_cprog->aggs[act->agg].name;
	}
	return NULL;
}

static dtrace_aggvarid_t
dt_program_aggvarid(dtrace_hdl_t *dtp, uint64_t uarg)
{
	dtrace_prog_t *pgp;

	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		const dt_caction_t *act = dt_cprog_action(pgp->dp_cprog, uarg);

		if (act != NULL && act->agg >= 0 && (size_t)act->agg < pgp->dp_cprog->naggs)
			return pgp->dp_cprog->aggs[act->agg].id;
	}
	return DTRACE_AGGVARIDNONE;
}

/* The program and action behind a record's uarg cookie. */
static const dt_caction_t *
dt_program_action(dtrace_hdl_t *dtp, uint64_t uarg, const dtrace_prog_t **pgpp)
{
	const dtrace_prog_t *pgp;

	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		const dt_caction_t *act = dt_cprog_action(pgp->dp_cprog, uarg);

		if (act != NULL) {
			*pgpp = pgp;
			return act;
		}
	}
	return NULL;
}

static const dt_ctype_t *
dt_program_printtype(dtrace_hdl_t *dtp, uint64_t uarg)
{
	const dtrace_prog_t *pgp;
	const dt_caction_t *act = dt_program_action(dtp, uarg, &pgp);

	return act != NULL ? act->ptype : NULL;
}

/* Our compiler gives every action its own cookie: statements are its stmt numbers. */
static int
dt_program_samestmt(dtrace_hdl_t *dtp, uint64_t a, uint64_t b)
{
	const dtrace_prog_t *pa, *pb;
	const dt_caction_t *x = dt_program_action(dtp, a, &pa);
	const dt_caction_t *y = dt_program_action(dtp, b, &pb);

	if (x == NULL || y == NULL)
		return a == b;
	return pa == pb && x->ecb == y->ecb && x->stmt == y->stmt;
}

void
dt_program_free(dtrace_prog_t *pgp)
{
	if (pgp == NULL)
		return;
	dt_cprog_free(pgp->dp_cprog);
	free(pgp->dp_name);
	free(pgp);
}

/* What the compiler is told of this handle's options for one compilation. */
static void
dt_program_copts(dtrace_hdl_t *dtp, dt_copts_t *copts_, dtrace_probespec_t spec, unsigned cflags,
		 int argc, char *const argv[])
{
	dt_copts_t copts;

	memset(&copts, 0, sizeof(copts));
	copts.flags = cflags | (dtp->dt_cflags & ~(unsigned)DTRACE_C_NOLIBS);
	copts.pspec = spec;
	copts.argc = argc;
	copts.argv = argv;
	copts.cpp = dtp->dt_cpp_path;
	copts.cpp_argc = dtp->dt_cpp_argc;
	copts.cpp_argv = dtp->dt_cpp_argv;
	if (dtp->dt_options[DTRACEOPT_STRSIZE] != DTRACEOPT_UNSET)
		copts.strsize = (uint32_t)dtp->dt_options[DTRACEOPT_STRSIZE];
	copts.stdc = "acst"[dtp->dt_stdcmode];
	copts.ilp32 = (dtp->dt_oflags & DTRACE_O_ILP32) != 0;
	copts.iregs = dtp->dt_iregs;
	copts.tregs = dtp->dt_tregs;
	copts.treedump = dtp->dt_treedump;
	copts.uarg_base = dtp->dt_nextuarg;
	copts.vmax = dtp->dt_vmax;
	copts.amin = dtp->dt_amin;
	if (dtp->dt_target != 0) {
		/* $target is the -c/-p process; the rest are ours, as DTrace has them */
		copts.macros.set = 1;
		copts.macros.pid = (int64_t)getpid();
		copts.macros.ppid = (int64_t)getppid();
		copts.macros.pgid = (int64_t)getpgrp();
		copts.macros.sid = (int64_t)getsid(0);
		copts.macros.uid = (int64_t)getuid();
		copts.macros.gid = (int64_t)getgid();
		copts.macros.euid = (int64_t)geteuid();
		copts.macros.egid = (int64_t)getegid();
		copts.macros.target = dtp->dt_target;
		copts.macros.cwd = NULL;
	}
	copts.ops.arg = dtp;
	if (dtp->dt_backend != NULL) {
		copts.ops.probe_match = dt_cops_probe_match;
		copts.ops.probe_why = dt_cops_probe_why;
		copts.ops.probe_fix = dt_cops_probe_fix;
		copts.ops.probe_arg = dt_cops_probe_arg;
		copts.ops.provider_attr = dt_cops_provider_attr;
	}
	copts.ops.setopt = dt_cops_setopt;
	copts.ctypes_fd = dtp->dt_cdefs_fd;
	copts.dtypes_fd = dtp->dt_ddefs_fd;
	copts.ctypes_fdp = &dtp->dt_cdefs_fd;
	copts.dtypes_fdp = &dtp->dt_ddefs_fd;
	copts.libs = dtp->dt_libs;
	copts.nlibs = dtp->dt_nlibs;
	copts.libdirs = dtp->dt_libdirs;
	copts.nlibdirs = dtp->dt_nlibdirs;
	*copts_ = copts;
}

/* --- D libraries ---------------------------------------------------------- */

/*
 * The D libraries: every .d file of the library directories, read before
 * the first program is compiled (DTrace's dt_load_libs()) unless -x nolibs.
 * The directories added with -x libdir (-L) come first, in their order,
 * then the system's (-x syslibdir); a missing directory or an unreadable
 * file is skipped, and a file named as one already found is too.  A
 * library may name those it needs with #pragma D depends_on library
 * name.d; the libraries are loaded in an order that puts every library
 * after those it depends on (DTrace's depth-first topological sort), each
 * compiled on its own with those loaded before it.  One whose dependency
 * could not be found or loaded is skipped (D_PRAGMA_DEPEND); any other
 * error in a library fails the compilation that loaded them.  Each
 * directory's files are taken in the order of their names (DTrace takes
 * readdir()'s).
 */
typedef struct dt_libfile {
	char *path;
	char *text;
	size_t len;
	char **deps; /* paths of the libraries it depends on */
	int ndeps;
	int *dependents; /* indexes of the libraries that depend on it */
	int ndependents;
	int start, finish; /* depth-first visit */
} dt_libfile_t;

typedef struct dt_libscan {
	dt_libfile_t *files;
	int nfiles;
	int *sorted;
	int nsorted;
} dt_libscan_t;

static int
dt_libname_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *
dt_lib_read(FILE *fp, size_t *lenp)
{
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap), *nbuf;

	while (buf != NULL && (n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += n;
		if (len + 1 >= cap) {
			if ((nbuf = realloc(buf, cap * 2)) == NULL) {
				free(buf);
				return NULL;
			}
			buf = nbuf;
			cap *= 2;
		}
	}
	if (buf != NULL)
		buf[len] = '\0';
	*lenp = len;
	return buf;
}

/*
 * A library's #pragma D depends_on library lines, as DTrace's first pass
 * over its control lines reads them: each found in the first library
 * directory that has it.  One that is nowhere ends the pass (the library
 * will then fail to load for it).
 */
static int
dt_lib_deps(dtrace_hdl_t *dtp, dt_libfile_t *lf)
{
	const char *p = lf->text;
	int line = 1;

	for (; *p != '\0'; line++) {
		const char *eol = strchr(p, '\n');
		size_t n = eol != NULL ? (size_t)(eol - p) : strlen(p);
		char buf[1024], w[5][256], *path = NULL;
		struct stat st;
		int i, nw;

		if (n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = '\0';
			nw = sscanf(buf, " # %255s %255s %255s %255s %255s", w[0], w[1], w[2], w[3], w[4]);
			if (nw == 5 && strcmp(w[0], "pragma") == 0 && strcmp(w[1], "D") == 0 &&
			    strcmp(w[2], "depends_on") == 0 && strcmp(w[3], "library") == 0) {
				for (i = 0; i < dtp->dt_nlibdirs; i++) {
					if ((path = malloc(strlen(dtp->dt_libdirs[i]) + strlen(w[4]) + 2)) == NULL)
						return dt_set_errno(dtp, EDT_NOMEM);
					(void)sprintf(path, "%s/%s", dtp->dt_libdirs[i], w[4]);
					if (stat(path, &st) == 0)
						break;
					free(path);
				}
				if (i == dtp->dt_nlibdirs) {
					dt_dprintf("error parsing library %s: %s\"%s\", line %d: failed to find "
						   "dependency in libpath: %s\n",
						   lf->path,
						   (dtp->dt_cflags & DTRACE_C_ETAGS) ? "[D_PRAGMA_DEPEND] " : "",
						   lf->path, line, w[4]);
					return 0;
				}
				char **deps = realloc(lf->deps, sizeof(char *) * (size_t)(lf->ndeps + 1));
				if (deps == NULL) {
					free(path);
					return dt_set_errno(dtp, EDT_NOMEM);
				}
				lf->deps = deps;
				deps[lf->ndeps++] = path;
			}
		}
		if (eol == NULL)
			break;
		p = eol + 1;
	}
	return 0;
}

static int
dt_lib_dir(dtrace_hdl_t *dtp, dt_libscan_t *ls, const char *dir)
{
	struct dirent *de;
	char **names = NULL;
	size_t nnames = 0, i;
	DIR *dp;
	int err = 0;

	if ((dp = opendir(dir)) == NULL) {
		dt_dprintf("skipping lib dir %s: %s\n", dir, strerror(errno));
		return 0;
	}
	while ((de = readdir(dp)) != NULL) {
		const char *dot = strrchr(de->d_name, '.');
		char **nn;

		if (dot == NULL || strcmp(dot, ".d") != 0)
			continue;
		if ((nn = realloc(names, sizeof(char *) * (nnames + 1))) == NULL ||
		    (nn[nnames] = strdup(de->d_name)) == NULL) {
			names = nn != NULL ? nn : names;
			err = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		names = nn;
		nnames++;
	}
	(void)closedir(dp);
	if (names != NULL)
		qsort(names, nnames, sizeof(char *), dt_libname_cmp);

	for (i = 0; i < nnames && err == 0; i++) {
		dt_libfile_t *lf, *nf;
		char *path = malloc(strlen(dir) + strlen(names[i]) + 2);
		FILE *fp;
		int j;

		if (path == NULL) {
			err = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		(void)sprintf(path, "%s/%s", dir, names[i]);
		if ((fp = fopen(path, "r")) == NULL) {
			dt_dprintf("skipping library %s: %s\n", path, strerror(errno));
			free(path);
			continue;
		}
		for (j = 0; j < ls->nfiles; j++) {
			if (strcmp(strrchr(ls->files[j].path, '/') + 1, names[i]) == 0)
				break;
		}
		if (j < ls->nfiles) {
			/* (DTrace's message has no newline) */
			dt_dprintf("skipping library %s, already processed library with the same name: %s",
				   names[i], ls->files[j].path);
			(void)fclose(fp);
			free(path);
			continue;
		}
		if ((nf = realloc(ls->files, sizeof(*nf) * (size_t)(ls->nfiles + 1))) == NULL) {
			(void)fclose(fp);
			free(path);
			err = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		ls->files = nf;
		lf = &nf[ls->nfiles++];
		memset(lf, 0, sizeof(*lf));
		lf->path = path;
		lf->text = dt_lib_read(fp, &lf->len);
		(void)fclose(fp);
		if (lf->text == NULL)
			err = dt_set_errno(dtp, EDT_NOMEM);
		else
			err = dt_lib_deps(dtp, lf);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return err;
}

static void
dt_lib_visit(dt_libscan_t *ls, int i, int *count)
{
	dt_libfile_t *lf = &ls->files[i];

	lf->start = (*count)++;
	for (int d = 0; d < lf->ndependents; d++) {
		if (ls->files[lf->dependents[d]].start == 0)
			dt_lib_visit(ls, lf->dependents[d], count);
	}
	/* prepended as it finishes: a library comes before what depends on it */
	memmove(ls->sorted + 1, ls->sorted, sizeof(int) * (size_t)ls->nsorted);
	ls->sorted[0] = i;
	ls->nsorted++;
	lf->finish = (*count)++;
}

static int
dt_lib_sort(dtrace_hdl_t *dtp, dt_libscan_t *ls)
{
	int i, d, j, count = 1;

	if ((ls->sorted = calloc((size_t)ls->nfiles + 1, sizeof(int))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (i = 0; i < ls->nfiles; i++) {
		for (d = 0; d < ls->files[i].ndeps; d++) {
			for (j = 0; j < ls->nfiles && strcmp(ls->files[j].path, ls->files[i].deps[d]) != 0; j++)
				continue;
			if (j == ls->nfiles) {
				/* DTrace's dt_lib_build_graph(): a dependency that is not one of the libraries */
				(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg),
					       "Invalid library dependency in %s: %s", ls->files[i].path,
					       ls->files[i].deps[d]);
				return dt_set_errno(dtp, EDT_COMPILER);
			}
			int *v = realloc(ls->files[j].dependents, sizeof(int) * (size_t)(ls->files[j].ndependents + 1));
			if (v == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			ls->files[j].dependents = v;
			v[ls->files[j].ndependents++] = i;
		}
	}
	for (i = 0; i < ls->nfiles; i++) {
		if (ls->files[i].start == 0)
			dt_lib_visit(ls, i, &count);
	}
	/*
	 * DTrace's dt_lib_depend_sort(): a library that finished after one it
	 * depends on closes a cycle.  Libraries in the order found, each one's
	 * dependents in the order they were found to depend on it; the first
	 * such pair is DTrace's message (no file or line: the library scan
	 * has cleared its file tag by then).
	 */
	for (j = 0; j < ls->nfiles; j++) {
		for (d = 0; d < ls->files[j].ndependents; d++) {
			i = ls->files[j].dependents[d];
			if (ls->files[i].finish > ls->files[j].finish) {
				(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg),
					       "Cyclic dependency detected: %s => %s", ls->files[j].path,
					       ls->files[i].path);
				return dt_set_errno(dtp, EDT_COMPILER);
			}
		}
	}
	return 0;
}

/* Compile library lf on its own, after those loaded so far; keep it if it loads. */
static int
dt_lib_load(dtrace_hdl_t *dtp, dt_libfile_t *lf)
{
	dt_copts_t copts;
	dt_cprog_t *cprog;
	dt_clib_t *libs;

	dt_program_copts(dtp, &copts, DTRACE_PROBESPEC_NAME, DTRACE_C_EMPTY, 0, NULL);
	copts.library = lf->path;
	if ((cprog = dt_compile_string(lf->text, &copts)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (cprog->err.failed) {
		int tag = cprog->err.tag;

		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "%s", cprog->err.text);
		dt_cprog_free(cprog);
		if (strcmp(dt_errtag_name(tag), "D_PRAGMA_DEPEND") != 0)
			return dt_set_errno(dtp, EDT_COMPILER);
		dt_dprintf("skipping library %s: %s\n", lf->path, dtp->dt_errmsg);
		return 0;
	}
	dt_cprog_free(cprog);
	if ((libs = realloc(dtp->dt_libs, sizeof(*libs) * (size_t)(dtp->dt_nlibs + 1))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_libs = libs;
	libs[dtp->dt_nlibs].path = lf->path;
	libs[dtp->dt_nlibs].text = lf->text;
	libs[dtp->dt_nlibs].len = lf->len;
	dtp->dt_nlibs++;
	lf->path = lf->text = NULL; /* the handle has them now */
	return 0;
}

int
dt_load_libs(dtrace_hdl_t *dtp)
{
	dt_libscan_t ls;
	int i, err = 0;

	if (dtp->dt_cflags & DTRACE_C_NOLIBS)
		return 0;
	dtp->dt_cflags |= DTRACE_C_NOLIBS;
	memset(&ls, 0, sizeof(ls));
	for (i = 1; i <= dtp->dt_nlibdirs && err == 0; i++)
		err = dt_lib_dir(dtp, &ls, dtp->dt_libdirs[i % dtp->dt_nlibdirs]);
	if (err != 0) {
		dtp->dt_cflags &= ~DTRACE_C_NOLIBS; /* tried again next time, as DTrace does */
	} else if ((err = dt_lib_sort(dtp, &ls)) == 0) {
		for (i = 0; i < ls.nsorted && err == 0; i++)
			err = dt_lib_load(dtp, &ls.files[ls.sorted[i]]);
	}
	for (i = 0; i < ls.nfiles; i++) {
		for (int d = 0; d < ls.files[i].ndeps; d++)
			free(ls.files[i].deps[d]);
		free(ls.files[i].deps);
		free(ls.files[i].dependents);
		free(ls.files[i].path);
		free(ls.files[i].text);
	}
	free(ls.files);
	free(ls.sorted);
	return err;
}

/*
 * dtrace -lv's argument types: DTrace resolves each description's types
 * with dtrace_type_strcompile() (dt_probe_discover), the libraries loaded,
 * and prints what ctf_type_name() calls the result.  A compilation of no
 * program with the libraries' declarations names them; one that cannot be
 * made leaves every name empty, "(unknown)".
 */
void
dt_program_argnames(dtrace_hdl_t *dtp, const dtrace_argdesc_t *ads, int n, char (*names)[DTRACE_ARGTYPELEN])
{
	dt_copts_t copts;
	dt_cprog_t *cprog;

	for (int i = 0; i < n; i++)
		names[i][0] = '\0';
	if (n == 0 || dt_load_libs(dtp) != 0)
		return;
	dt_program_copts(dtp, &copts, DTRACE_PROBESPEC_NAME, DTRACE_C_EMPTY, 0, NULL);
	copts.argtypes = ads;
	copts.nargtypes = n;
	copts.argnames = names;
	if ((cprog = dt_compile_string("", &copts)) != NULL)
		dt_cprog_free(cprog);
}

/* --- Compiling ------------------------------------------------------------ */

static dtrace_prog_t *
dt_program_compile(dtrace_hdl_t *dtp, const char *s, FILE *fp, dtrace_probespec_t spec,
		   unsigned cflags, int argc, char *const argv[])
{
	dt_copts_t copts;
	dt_cprog_t *cprog;
	dtrace_prog_t *pgp;
	uint64_t next;
	size_t i;

	if (dt_load_libs(dtp) != 0)
		return NULL;
	dt_program_copts(dtp, &copts, spec, cflags, argc, argv);
	cprog = s != NULL ? dt_compile_string(s, &copts) : dt_compile_file(fp, &copts);
	if (cprog == NULL) {
		(void)dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	if (cprog->err.failed) {
		/* -S: DTrace has listed each DIFO as it was assembled, before the error */
		if (copts.flags & DT_C_DIFV)
			dt_cprog_disassemble(cprog, stderr);
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "%s", cprog->err.text);
		dt_cprog_free(cprog);
		(void)dt_set_errno(dtp, EDT_COMPILER);
		return NULL;
	}
	if ((pgp = dt_calloc(dtp, sizeof(*pgp))) == NULL) {
		dt_cprog_free(cprog);
		return NULL;
	}
	pgp->dp_cprog = cprog;
	for (i = 0; i < cprog->ndescs; i++)
		pgp->dp_matches += cprog->descs[i].matched > 0 ? (unsigned)cprog->descs[i].matched : 0;

	/* the next program's cookies start past every cookie this one used */
	next = cprog->uarg_base + cprog->nacts;
	for (i = 0; i < cprog->necbs; i++) {
		if (cprog->ecbs[i].uarg >= next)
			next = cprog->ecbs[i].uarg + 1;
	}
	dtp->dt_nextuarg = next + 1;

	pgp->dp_next = dtp->dt_progs;
	dtp->dt_progs = pgp;
	dtp->dt_aggname = dt_program_aggname;
	dtp->dt_aggvarid = dt_program_aggvarid;
	dtp->dt_samestmt = dt_program_samestmt;
	dtp->dt_printtype = dt_program_printtype;
	return pgp;
}

dtrace_prog_t *
dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s, dtrace_probespec_t spec,
			  unsigned cflags, int argc, char *const argv[])
{
	return dt_program_compile(dtp, s, NULL, spec, cflags, argc, argv);
}

dtrace_prog_t *
dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, unsigned cflags, int argc,
			char *const argv[])
{
	return dt_program_compile(dtp, NULL, fp, DTRACE_PROBESPEC_NAME, cflags, argc, argv);
}

void
dtrace_program_setname(dtrace_prog_t *pgp, const char *name)
{
	free(pgp->dp_name);
	pgp->dp_name = name != NULL ? strdup(name) : NULL;
}

void
dtrace_program_info(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info)
{
	const dt_cprog_t *cp = pgp->dp_cprog;
	size_t i;

	(void)dtp;
	memset(info, 0, sizeof(*info));
	info->dpi_matches = pgp->dp_matches;
	/*
	 * DTrace's minimum over the statements (one per clause and
	 * description): from Standard/Standard/Common, or Stable/Stable/Common
	 * for a program without any.
	 */
	static const dtrace_attribute_t maxattr = {DTRACE_STABILITY_MAX, DTRACE_STABILITY_MAX,
						   DTRACE_CLASS_MAX};
	static const dtrace_attribute_t defattr = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE,
						   DTRACE_CLASS_COMMON};
	info->dpi_descattr = info->dpi_stmtattr = cp->necbs > 0 ? maxattr : defattr;
	for (i = 0; i < cp->necbs; i++) {
		dtrace_attribute_t *m[2] = {&info->dpi_descattr, &info->dpi_stmtattr};
		const dtrace_attribute_t *a[2] = {&cp->ecbs[i].descattr, &cp->ecbs[i].stmtattr};
		for (int j = 0; j < 2; j++) {
			if (a[j]->dtat_name < m[j]->dtat_name)
				m[j]->dtat_name = a[j]->dtat_name;
			if (a[j]->dtat_data < m[j]->dtat_data)
				m[j]->dtat_data = a[j]->dtat_data;
			if (a[j]->dtat_class < m[j]->dtat_class)
				m[j]->dtat_class = a[j]->dtat_class;
		}
	}
	info->dpi_aggregates = (unsigned)cp->naggs;
	for (i = 0; i < cp->nacts; i++) {
		uint16_t k = cp->acts[i].kind;

		if (k == DTRACEACT_SPECULATE)
			info->dpi_speculations++;
		if (!DTRACEACT_ISAGG(k) && k != DTRACEACT_LIBACT)
			info->dpi_recgens++;
	}
}

int
dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info)
{
	int n = 0;

	if (info != NULL)
		dtrace_program_info(dtp, pgp, info);
	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	/*
	 * DTrace builds the DOF here, its header naming the registers the
	 * options now allow (-x iregs, tregs): a count no header byte holds
	 * is EOVERFLOW, and the core refuses more registers than it has.
	 */
	if (dtp->dt_iregs > UINT8_MAX || dtp->dt_tregs > UINT8_MAX)
		return dt_set_errno(dtp, EOVERFLOW);
	((dof_hdr_t *)pgp->dp_cprog->dof)->dofh_ident[DOF_ID_DIFIREG] = (uint8_t)dtp->dt_iregs;
	((dof_hdr_t *)pgp->dp_cprog->dof)->dofh_ident[DOF_ID_DIFTREG] = (uint8_t)dtp->dt_tregs;
	/*
	 * The core sizes actions from the options when it creates the ECBs
	 * (stack() without an argument takes stackframes, ustack()
	 * ustackframes, strings strsize), so the options set so far go first,
	 * as DTrace's ENABLE DOF carries them.
	 */
	if (dt_program_options(dtp) != 0)
		return -1;
	if (dt_ctl(dtp, DTRACE_CTL_ENABLE, pgp->dp_cprog->dof, &n) != 0) {
		const char *why = dtp->dt_backend->errmsg(dtp->dt_bestate);

		if (why != NULL)
			dt_dprintf("ENABLE refused: %s\n", why);
		switch (dtp->dt_errno) {
		case EINVAL:
			return dt_set_errno(dtp, EDT_DIFINVAL);
		case EACCES:
			return dt_set_errno(dtp, EDT_DESTRUCTIVE);
		default:
			return -1;
		}
	}
	pgp->dp_enabled = 1;
	if (info != NULL)
		info->dpi_matches = (unsigned)n;
	return 0;
}

void
dtrace_program_disassemble(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, FILE *fp)
{
	(void)dtp;
	dt_cprog_disassemble(pgp->dp_cprog, fp);
}

int
dtrace_program_descs(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_pdesc_f *func, void *arg)
{
	size_t i;
	int rval;

	for (i = 0; i < pgp->dp_cprog->ndescs; i++) {
		if ((rval = func(dtp, &pgp->dp_cprog->descs[i].pd, arg)) != 0)
			return rval;
	}
	return 0;
}

/* --- What dtrace_go() enables before GO ---------------------------------- */

/* The library's dtrace:::ERROR enabling, whose firings become error reports. */
int
dt_program_errprog(dtrace_hdl_t *dtp)
{
	dtrace_prog_t *pgp;

	if ((pgp = dtrace_program_strcompile(dtp, dt_errprog_text, DTRACE_PROBESPEC_NAME,
	                                     DTRACE_C_ZDEFS, 0, NULL)) == NULL)
		return -1;
	if (pgp->dp_cprog->necbs != 1)
		return dt_set_errno(dtp, EDT_BADERROR);
	if (dtrace_program_exec(dtp, pgp, NULL) != 0)
		return -1;
	dtp->dt_erruarg = pgp->dp_cprog->ecbs[0].uarg;
	return 0;
}

/* Every option that is set, as an OPTDESC-only DOF the core applies. */
int
dt_program_options(dtrace_hdl_t *dtp)
{
	void *dof;
	size_t size;
	int rval;

	if (dt_dof_options(dtp->dt_options, &dof, &size) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	rval = dt_ctl(dtp, DTRACE_CTL_ENABLE, dof, NULL);
	free(dof);
	if (rval != 0 && dtp->dt_errno == EINVAL)
		return dt_set_errno(dtp, EDT_BADOPTVAL);
	return rval;
}

/*
 * dtrace -h.  Macro names are upper case with '-' and '.' as '_'; function
 * names keep the case and spell '-' as "__" (query-start: QUERY_START,
 * query__start).  Probes come in declaration order (DTrace walks its probe
 * hash), providers in the order the programs declared them.
 */
static void
dt_header_macro(char *buf, const char *s)
{
	for (; *s != '\0'; s++)
		*buf++ = (*s == '-' || *s == '.') ? '_' : (*s >= 'a' && *s <= 'z') ? (char)(*s - 'a' + 'A') : *s;
	*buf = '\0';
}

static void
dt_header_func(char *buf, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '-') {
			*buf++ = '_';
			*buf++ = '_';
		} else {
			*buf++ = *s;
		}
	}
	*buf = '\0';
}

static void
dt_header_arglist(FILE *out, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(out, "%sarg%d", i == 0 ? "" : ", ", i);
}

/* What to write for one probe: its macros (full or empty) or its prototypes. */
enum dt_header_part { DT_HDR_MACROS, DT_HDR_DECLS, DT_HDR_EMPTY };

static void
dt_header_probe(FILE *out, const char *pm, const char *pf, const dt_cprobe_decl_t *pr,
                enum dt_header_part part)
{
	size_t len = strlen(pr->name);
	char *mname = malloc(len + 1), *fname = malloc(2 * len + 1);

	if (mname == NULL || fname == NULL) {
		free(mname);
		free(fname);
		return;
	}
	dt_header_macro(mname, pr->name);
	dt_header_func(fname, pr->name);
	switch (part) {
	case DT_HDR_MACROS:
		fprintf(out, "#define\t%s_%s(", pm, mname);
		dt_header_arglist(out, pr->nargs);
		fprintf(out, ") \\\n\t__dtrace_%s___%s(", pf, fname);
		dt_header_arglist(out, pr->nargs);
		fprintf(out, ")\n");
		fprintf(out,
		        "#ifndef\t__sparc\n#define\t%s_%s_ENABLED() \\\n\t__dtraceenabled_%s___%s()\n"
		        "#else\n#define\t%s_%s_ENABLED() \\\n\t__dtraceenabled_%s___%s(0)\n#endif\n",
		        pm, mname, pf, fname, pm, mname, pf, fname);
		break;
	case DT_HDR_DECLS:
		fprintf(out, "extern void __dtrace_%s___%s(", pf, fname);
		for (int i = 0; i < pr->nargs; i++)
			fprintf(out, "%s%s", i == 0 ? "" : ", ", pr->args[i]);
		fprintf(out, "%s);\n", pr->nargs == 0 ? "void" : "");
		fprintf(out,
		        "#ifndef\t__sparc\nextern int __dtraceenabled_%s___%s(void);\n#else\n"
		        "extern int __dtraceenabled_%s___%s(long);\n#endif\n",
		        pf, fname, pf, fname);
		break;
	case DT_HDR_EMPTY:
		fprintf(out, "#define\t%s_%s(", pm, mname);
		dt_header_arglist(out, pr->nargs);
		fprintf(out, ")\n#define\t%s_%s_ENABLED() (0)\n", pm, mname);
		break;
	}
	free(mname);
	free(fname);
}

/* Every probe of provider provs[i], and of the later declarations of the same name. */
static void
dt_header_probes(FILE *out, const dt_cprovider_t **provs, size_t nprovs, size_t i, const char *pm,
                 const char *pf, enum dt_header_part part)
{
	for (size_t j = i; j < nprovs; j++) {
		if (strcmp(provs[j]->name, provs[i]->name) != 0)
			continue;
		for (size_t k = 0; k < provs[j]->nprobes; k++)
			dt_header_probe(out, pm, pf, &provs[j]->probes[k], part);
	}
}

int
dtrace_program_header(dtrace_hdl_t *dtp, FILE *out, const char *fname)
{
	const dt_cprovider_t **provs;
	dtrace_prog_t *pgp;
	size_t nprovs = 0, n;
	char *guard = NULL;
	const char *p;

	/* The provider declarations, oldest program first (dt_progs is newest first). */
	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next)
		nprovs += pgp->dp_cprog != NULL ? pgp->dp_cprog->nproviders : 0;
	if ((provs = calloc(nprovs + 1, sizeof(*provs))) == NULL)
		return -1;
	n = nprovs;
	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		const dt_cprog_t *cp = pgp->dp_cprog;
		for (size_t j = cp != NULL ? cp->nproviders : 0; j-- > 0;)
			provs[--n] = &cp->providers[j];
	}
	if (fname != NULL) {
		if ((p = strrchr(fname, '/')) != NULL)
			fname = p + 1;
		if ((guard = malloc(strlen(fname) + 1)) == NULL) {
			free(provs);
			return -1;
		}
		dt_header_macro(guard, fname);
		fprintf(out, "#ifndef\t_%s\n#define\t_%s\n\n", guard, guard);
	}
	fprintf(out, "#include <unistd.h>\n\n");
	fprintf(out, "#ifdef\t__cplusplus\nextern \"C\" {\n#endif\n\n");
	for (size_t i = 0; i < nprovs; i++) {
		const char *name = provs[i]->name;
		size_t len = strlen(name), j;
		char *pm, *pf;

		for (j = 0; j < i && strcmp(provs[j]->name, name) != 0; j++)
			continue;
		if (j < i) /* written with its first declaration */
			continue;
		pm = malloc(len + 1);
		pf = malloc(2 * len + 1);
		if (pm == NULL || pf == NULL) {
			free(pm);
			free(pf);
			free(provs);
			free(guard);
			return -1;
		}
		dt_header_macro(pm, name);
		dt_header_func(pf, name);
		fprintf(out, "#if _DTRACE_VERSION\n\n");
		dt_header_probes(out, provs, nprovs, i, pm, pf, DT_HDR_MACROS);
		fprintf(out, "\n\n");
		dt_header_probes(out, provs, nprovs, i, pm, pf, DT_HDR_DECLS);
		fprintf(out, "\n#else\n\n");
		dt_header_probes(out, provs, nprovs, i, pm, pf, DT_HDR_EMPTY);
		fprintf(out, "\n#endif\n\n");
		free(pm);
		free(pf);
	}
	fprintf(out, "\n#ifdef\t__cplusplus\n}\n#endif\n");
	if (guard != NULL)
		fprintf(out, "\n#endif\t/* _%s */\n", guard);
	free(guard);
	free(provs);
	return ferror(out) ? -1 : 0;
}
