/*
 * dt_handle.c: the handle itself, without a core.  dt_handle_create()
 * builds a handle that reaches no backend (tests use it to format
 * synthetic records); dtrace_open() in dt_open.c adds the backend.  All
 * control operations funnel through dt_ctl(), which turns backend errors
 * into the handle's errno.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dt_compile.h"
#include "dt_impl.h"

void *
dt_alloc(dtrace_hdl_t *dtp, size_t size)
{
	void *p = malloc(size != 0 ? size : 1);

	if (p == NULL)
		(void)dt_set_errno(dtp, EDT_NOMEM);
	return p;
}

void *
dt_calloc(dtrace_hdl_t *dtp, size_t size)
{
	void *p = calloc(1, size != 0 ? size : 1);

	if (p == NULL)
		(void)dt_set_errno(dtp, EDT_NOMEM);
	return p;
}

char *
dt_recstr(dtrace_hdl_t *dtp, const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		(void)dt_set_errno(dtp, EDT_NOMEM);
	return p;
}

int
dt_rec_int(const char *addr, size_t size, int64_t *sv, uint64_t *uv)
{
	switch (size) {
	case sizeof(uint8_t):
		*sv = *(const int8_t *)addr;
		*uv = *(const uint8_t *)addr;
		return 0;
	case sizeof(uint16_t):
		*sv = *(const int16_t *)addr;
		*uv = *(const uint16_t *)addr;
		return 0;
	case sizeof(uint32_t):
		*sv = *(const int32_t *)addr;
		*uv = *(const uint32_t *)addr;
		return 0;
	case sizeof(uint64_t):
		*sv = *(const int64_t *)addr;
		*uv = *(const uint64_t *)addr;
		return 0;
	default:
		*sv = 0;
		*uv = 0;
		return -1;
	}
}

int64_t
dt_gethrtime(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * DTRACE_NANOSEC + ts.tv_nsec;
}

/* -c processes start with the environment dtrace itself was given. */
static int
dt_handle_env(dtrace_hdl_t *dtp)
{
	extern char **environ;
	size_t n = 0, i;

	while (environ != NULL && environ[n] != NULL)
		n++;
	if ((dtp->dt_proc_env = calloc(n + 1, sizeof(char *))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if ((dtp->dt_proc_env[i] = strdup(environ[i])) == NULL)
			return -1;
	}
	return 0;
}

dtrace_hdl_t *
dt_handle_create(int version, int flags)
{
	dtrace_hdl_t *dtp = calloc(1, sizeof(*dtp));
	int i;

	if (dtp == NULL)
		return NULL;
	dtp->dt_version = version;
	dtp->dt_oflags = flags;
	for (i = 0; i < DTRACEOPT_MAX; i++)
		dtp->dt_options[i] = DTRACEOPT_UNSET;
	dtp->dt_beganon = -1;
	dtp->dt_endedon = -1;
	dtp->dt_stdout_fd = -1;
	dtp->dt_nextuarg = DT_UARG_BASE;
	dtp->dt_ncpu = 1;
	/* DTrace's defaults for the compile-time options dt_options.c keeps here */
	dtp->dt_stdcmode = DT_STDC_XA;
	dtp->dt_iregs = DIF_DIR_NREGS;
	dtp->dt_tregs = DIF_DTR_NREGS;
	dtp->dt_linkmode = DT_LINK_KERNEL;
	dtp->dt_linktype = DT_LTYP_ELF;
	dtp->dt_xlatemode = DT_XL_STATIC;
	dtp->dt_prcmode = DT_PROC_STOP_POSTINIT;
	dtp->dt_pgmax = 8;
	dtp->dt_cdefs_fd = -1;
	dtp->dt_ddefs_fd = -1;
	if (dt_handle_env(dtp) != 0 || (dtp->dt_libdirs = calloc(1, sizeof(char *))) == NULL ||
	    (dtp->dt_libdirs[0] = strdup(DT_SYSLIBDIR)) == NULL) {
		dt_handle_destroy(dtp);
		return NULL;
	}
	dtp->dt_nlibdirs = 1;
	return dtp;
}

void
dt_handle_destroy(dtrace_hdl_t *dtp)
{
	int i;

	if (dtp == NULL)
		return;
	dt_aggregate_destroy(dtp);
	dt_consume_destroy(dtp);
	dt_desc_destroy(dtp);
	dt_symtab_destroy(dtp);
	dt_proc_destroy(dtp);
	for (i = 0; i < dtp->dt_cpp_argc; i++)
		free(dtp->dt_cpp_argv[i]);
	free(dtp->dt_cpp_argv);
	free(dtp->dt_cpp_path);
	free(dtp->dt_ld_path);
	for (i = 0; i < dtp->dt_nlibdirs; i++)
		free(dtp->dt_libdirs[i]);
	free(dtp->dt_libdirs);
	for (i = 0; i < dtp->dt_nlibs; i++) {
		free((char *)dtp->dt_libs[i].path);
		free((char *)dtp->dt_libs[i].text);
	}
	free(dtp->dt_libs);
	for (i = 0; dtp->dt_proc_env != NULL && dtp->dt_proc_env[i] != NULL; i++)
		free(dtp->dt_proc_env[i]);
	free(dtp->dt_proc_env);
	if (dtp->dt_cdefs_fd != -1)
		(void)close(dtp->dt_cdefs_fd);
	if (dtp->dt_ddefs_fd != -1)
		(void)close(dtp->dt_ddefs_fd);
	free(dtp->dt_sprintf_buf);
	if (dtp->dt_stdout_fd != -1)
		(void)close(dtp->dt_stdout_fd);
	free(dtp);
}

int
dt_ctl(dtrace_hdl_t *dtp, dtrace_ctl_t cmd, void *arg, int *rv)
{
	int dummy = 0, err;

	if (dtp->dt_backend == NULL)
		return dt_set_errno(dtp, EDT_GNOENT);
	err = dtp->dt_backend->ctl(dtp->dt_bestate, cmd, arg, rv != NULL ? rv : &dummy);
	if (err != 0) {
		errno = err;
		return dt_set_errno(dtp, err);
	}
	return 0;
}
