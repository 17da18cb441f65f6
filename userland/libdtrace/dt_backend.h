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

#include <stddef.h>

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

	/*
	 * Tracing other processes, where the backend needs help to reach them
	 * (NULL otherwise).  On the Linux host an agent runs inside each
	 * traced process: a command started for -c has it preloaded
	 * (proc_preload names the library and gives the two ends of its
	 * connection; the child's end goes in DTRACE_AGENT_FD), proc_created
	 * waits for it and proc_go lets the command run; proc_grab injects it
	 * into a running process for -p.  Errors are errno values with the
	 * user's sentence in errbuf.
	 */
	int (*proc_preload)(const char **lib, int *consumer_end, int *agent_end);
	/* Can a command at this path be traced once started?  0, or an errno
	 * with the reason in errbuf (a static or set-user-ID program). */
	int (*proc_check)(const char *path, char *errbuf, size_t errlen);
	int (*proc_created)(int pid, int consumer_end, char *errbuf, size_t errlen);
	int (*proc_grab)(int pid, char *errbuf, size_t errlen);
	int (*proc_go)(int pid);
	/* 1, once, when the process ran exec and so lost its probes. */
	int (*proc_dropped)(int pid);
	/* Probe firings refused in the process (no probe context could be
	 * entered) since the last call: reported as drops. */
	uint64_t (*proc_refused)(int pid);
	/* Why the last description offered to pid<pid> made no probe:
	 * DT_PID_WHY_* with DTrace's sentence in buf, or 0 (and cleared). */
	int (*pid_why)(int pid, char *buf, size_t len);
	/* The file the process runs, for `a.out` (NULL: /proc/<pid>/exe).
	 * Returns 0 or an errno. */
	int (*proc_exe)(int pid, char *buf, size_t len);
} dt_backend_t;

#define DT_PID_WHY_OFF 1	/* offset outside the function */
#define DT_PID_WHY_ALIGN 2	/* offset not on an instruction */
#define DT_PID_WHY_NAME 3	/* not a probe name of the pid provider */
#define DT_PID_WHY_FUNC 4	/* no such function in the named module */
#define DT_PID_WHY_GRAB 5	/* the process could not be traced */
#define DT_PID_WHY_CREATEFAIL 6 /* the probe could not be made */

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
