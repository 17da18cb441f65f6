/*
 * dt_backend.h: how the consumer reaches the core.
 *
 * Every control operation the consumer makes goes through one table.  A
 * kernel build supplies it from a file that opens the DTrace device and
 * issues ioctls; the Linux build supplies it from dt_backend_linux.c, which
 * starts the user-space host and calls the core directly.  CMake compiles
 * exactly one backend file, and that file defines dt_backend_native: no C
 * code asks which OS it runs on.
 *
 * Errors are host errno values (EINVAL, ENOENT, EBUSY, ...), as an ioctl
 * would return them; the backend translates whatever its core returns.
 */
#ifndef DT_BACKEND_H
#define DT_BACKEND_H

#include "dtrace_abi.h"

typedef struct dt_backend {
	const char *name;
	/* Open a consumer state.  Returns 0 or an errno. */
	int (*open)(void **statep);
	/* A control operation with DTrace's ioctl semantics.  Returns 0 or an
	 * errno; *rv gets the operation's result where it has one. */
	int (*ctl)(void *state, dtrace_ctl_t cmd, void *arg, int *rv);
	/* Number of CPU buffers to snapshot (CPU ids 0 .. n-1). */
	int (*ncpus)(void *state);
	/* Why the last ENABLE was refused, or NULL. */
	const char *(*errmsg)(void *state);
	void (*close)(void *state);
} dt_backend_t;

/* The backend CMake selected for this build. */
extern const dt_backend_t dt_backend_native;

/*
 * Backends a build may carry beside the native one, chosen at run time by
 * the environment variable DTRACE_BACKEND=<name>: "rump" reaches a NetBSD
 * kernel running in this process (dt_backend_rump.c).  Weak: a build that
 * does not compile one leaves its address NULL.
 */
extern const dt_backend_t dt_backend_rump __attribute__((weak));

/* The backend DTRACE_BACKEND names (the native one when unset), or NULL
 * when this build has no backend of that name. */
const dt_backend_t *dt_backend_choose(void);

#endif /* DT_BACKEND_H */
