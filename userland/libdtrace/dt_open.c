/*
 * dt_open.c: dtrace_open() and dtrace_close(): a handle plus a consumer
 * state opened through the backend CMake selected (dt_backend_native).
 * With DTRACE_O_NODEV the handle reaches no core: compiling and -e work,
 * tracing does not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

const char *const dtrace_version_string = "Sun D 1.13";

const dt_backend_t *
dt_backend_choose(void)
{
	const char *name = getenv("DTRACE_BACKEND");

	if (name == NULL || *name == '\0' || strcmp(name, dt_backend_native.name) == 0)
		return &dt_backend_native;
	if (&dt_backend_rump != NULL && strcmp(name, dt_backend_rump.name) == 0)
		return &dt_backend_rump;
	return NULL;
}

dtrace_hdl_t *
dtrace_open(int version, int flags, int *errp)
{
	dtrace_hdl_t *dtp;
	int err;

	if (getenv("DTRACE_DEBUG") != NULL)
		_dtrace_debug = 1;
	if (version > DTRACE_VERSION) {
		if (errp != NULL)
			*errp = EDT_VERSION;
		return NULL;
	}
	if ((flags & DTRACE_O_LP64) && (flags & DTRACE_O_ILP32)) {
		if (errp != NULL)
			*errp = EINVAL;
		return NULL;
	}
	if ((dtp = dt_handle_create(version, flags)) == NULL) {
		if (errp != NULL)
			*errp = EDT_NOMEM;
		return NULL;
	}
	if (flags & DTRACE_O_NODEV)
		return dtp;

	if ((dtp->dt_backend = dt_backend_choose()) == NULL) {
		dt_handle_destroy(dtp);
		if (errp != NULL)
			*errp = EDT_GNOENT;
		return NULL;
	}
	if ((err = dtp->dt_backend->open(&dtp->dt_bestate)) != 0) {
		dtp->dt_backend = NULL;
		dt_handle_destroy(dtp);
		if (errp != NULL)
			*errp = err == ENOENT ? EDT_GNOENT : err == EACCES ? EDT_ACCESS : err;
		return NULL;
	}
	dtp->dt_ncpu = dtp->dt_backend->ncpus(dtp->dt_bestate);
	if (dtp->dt_ncpu < 1)
		dtp->dt_ncpu = 1;
	return dtp;
}

void
dtrace_close(dtrace_hdl_t *dtp)
{
	dtrace_prog_t *pgp, *next;

	if (dtp == NULL)
		return;
	for (pgp = dtp->dt_progs; pgp != NULL; pgp = next) {
		next = pgp->dp_next;
		dt_program_free(pgp);
	}
	dtp->dt_progs = NULL;
	if (dtp->dt_backend != NULL) {
		if (dtp->dt_active && !dtp->dt_stopped)
			(void)dtrace_stop(dtp);
		dtp->dt_backend->close(dtp->dt_bestate);
	}
	dt_handle_destroy(dtp);
}

