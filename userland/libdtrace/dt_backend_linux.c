/*
 * dt_backend_linux.c: the consumer's way to the core on Linux, where the
 * core is a library in this process.  Opening starts the user-space host
 * (idempotent) and opens a consumer state; control operations are direct
 * calls to dtrace_ctl() with the consumer's own pointers.  The core's error
 * numbers are translated into this host's errno values explicitly, so
 * nothing depends on the two sets happening to agree.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "dt_backend.h"
#include "dtrace.h"
#include "host.h"

static int
dt_linux_errno(int err)
{
	static const struct {
		int core;
		int host;
	} map[] = {
		{DTRACE_EPERM, EPERM},   {DTRACE_ENOENT, ENOENT},     {DTRACE_ESRCH, ESRCH},
		{DTRACE_EFAULT, EFAULT}, {DTRACE_EBUSY, EBUSY},       {DTRACE_EEXIST, EEXIST},
		{DTRACE_ENOMEM, ENOMEM}, {DTRACE_EACCES, EACCES},     {DTRACE_EINVAL, EINVAL},
		{DTRACE_ENOSPC, ENOSPC}, {DTRACE_E2BIG, E2BIG},       {DTRACE_EALREADY, EALREADY},
		{DTRACE_ENOTSUP, ENOTSUP}, {DTRACE_EBADMSG, EBADMSG},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].core == err)
			return map[i].host;
	}
	return err != 0 ? EINVAL : 0;
}

static int
dt_linux_open(void **statep)
{
	dtrace_state_t *state;
	int err;

	if ((err = dtrace_linux_host_init()) != 0)
		return err;
	/* In this process the consumer may see everything the host provides. */
	if ((err = dtrace_state_open(DTRACE_PRIV_ALL, (uint32_t)getuid(), &state)) != 0)
		return dt_linux_errno(err);
	*statep = state;
	return 0;
}

static int
dt_linux_ctl(void *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	return dt_linux_errno(dtrace_ctl(state, cmd, arg, rv));
}

static int
dt_linux_ncpus(void *state)
{
	(void)state;
	return (int)dtrace_port_ncpus();
}

static const char *
dt_linux_errmsg(void *state)
{
	(void)state;
	return NULL;
}

/*
 * The last handle to close stops the host, which unregisters its providers
 * and frees their probes; while another handle still has a state open the
 * host refuses (DTRACE_EBUSY) and stays up for it.
 */
static void
dt_linux_close(void *state)
{
	dtrace_state_close(state);
	(void)dtrace_linux_host_fini();
}

static int
dt_linux_proc_preload(const char **lib, int *consumer_end, int *agent_end)
{
	*lib = dtrace_linux_agent_path();
	if (access(*lib, R_OK) != 0)
		return errno;
	return dtrace_linux_proc_socketpair(consumer_end, agent_end);
}

const dt_backend_t dt_backend_native = {
	.name = "linux",
	.open = dt_linux_open,
	.ctl = dt_linux_ctl,
	.ncpus = dt_linux_ncpus,
	.errmsg = dt_linux_errmsg,
	.close = dt_linux_close,
	.proc_preload = dt_linux_proc_preload,
	.proc_check = dtrace_linux_proc_check,
	.proc_created = dtrace_linux_proc_created,
	.proc_grab = dtrace_linux_proc_grab,
	.proc_go = dtrace_linux_proc_go,
	.proc_dropped = dtrace_linux_proc_dropped,
	.proc_refused = dtrace_linux_proc_refused,
	.pid_why = dtrace_linux_pid_why,
	.proc_exe = dtrace_linux_proc_exe,
};
