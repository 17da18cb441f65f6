/*
 * dt_backend_rump.c: the consumer's way to a NetBSD kernel running in this
 * process as a rump kernel, selected with DTRACE_BACKEND=rump.
 *
 * Opening boots the rump kernel once per process with the dtrace module
 * (port/netbsd, built as a rump component) and opens /dev/dtrace/dtrace in
 * it; every control operation is then an ioctl with NetBSD's DTRACEIOC_*
 * number (kernel/bsd_ioctl.h, encoded as NetBSD encodes it) and argument
 * layout: the structure itself, a pointer to it for BUFSNAP, AGGSNAP,
 * EPROBE, AGGDESC and DOFGET, a dtrace_enable_io_t for ENABLE.  The kernel
 * copies the payload in and out and its marshaller reaches the nested
 * buffers with copyin/copyout, exactly as for a NetBSD dtrace(1).
 *
 * Where: DTRACE_RUMP_LIBDIR (the rump libraries) and DTRACE_RUMP_COMPONENT
 * (librumpdtrace.so) default to what this build made; DTRACE_RUMP_NCPU
 * (default 2) is the number of virtual CPUs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_backend.h"
#include "rump_host.h"
#include "bsd_ioctl.h"

#ifndef DT_RUMP_LIBDIR
#define DT_RUMP_LIBDIR ""
#endif
#ifndef DT_RUMP_COMPONENT
#define DT_RUMP_COMPONENT ""
#endif

typedef struct dt_rump {
	int fd;
} dt_rump_t;

static const char *
dt_rump_env(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : dflt;
}

static int
dt_rump_open(void **statep)
{
	const char *ncpu = dt_rump_env("DTRACE_RUMP_NCPU", "2");
	char why[256];
	dt_rump_t *st;

	if (dtrace_rump_boot(dt_rump_env("DTRACE_RUMP_LIBDIR", DT_RUMP_LIBDIR),
			     dt_rump_env("DTRACE_RUMP_COMPONENT", DT_RUMP_COMPONENT), atoi(ncpu), why,
			     sizeof(why)) != 0)
		return ENOENT;
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return ENOMEM;
	if ((st->fd = dtrace_rump.open("/dev/dtrace/dtrace", DTRACE_RUMP_O_RDWR)) < 0) {
		int err = dtrace_rump_errno(errno);

		free(st);
		return err;
	}
	*statep = st;
	return 0;
}

static int
dt_rump_ctl(void *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	static const unsigned long iocs[] = {
		[DTRACE_CTL_PROVIDER] = DTRACEIOC_PROVIDER, [DTRACE_CTL_PROBES] = DTRACEIOC_PROBES,
		[DTRACE_CTL_BUFSNAP] = DTRACEIOC_BUFSNAP,   [DTRACE_CTL_PROBEMATCH] = DTRACEIOC_PROBEMATCH,
		[DTRACE_CTL_ENABLE] = DTRACEIOC_ENABLE,	    [DTRACE_CTL_AGGSNAP] = DTRACEIOC_AGGSNAP,
		[DTRACE_CTL_EPROBE] = DTRACEIOC_EPROBE,	    [DTRACE_CTL_PROBEARG] = DTRACEIOC_PROBEARG,
		[DTRACE_CTL_CONF] = DTRACEIOC_CONF,	    [DTRACE_CTL_STATUS] = DTRACEIOC_STATUS,
		[DTRACE_CTL_GO] = DTRACEIOC_GO,		    [DTRACE_CTL_STOP] = DTRACEIOC_STOP,
		[DTRACE_CTL_AGGDESC] = DTRACEIOC_AGGDESC,   [DTRACE_CTL_FORMAT] = DTRACEIOC_FORMAT,
		[DTRACE_CTL_DOFGET] = DTRACEIOC_DOFGET,	    [DTRACE_CTL_REPLICATE] = DTRACEIOC_REPLICATE,
	};
	dt_rump_t *st = state;
	dtrace_enable_io_t io;
	/* The payload of EPROBE is its structure's size; only the pointer at
	 * its start is read. */
	union {
		void *ptr;
		char room[sizeof(dtrace_eprobedesc_t)];
	} pp;
	void *payload = arg;

	*rv = 0;
	if ((unsigned)cmd >= sizeof(iocs) / sizeof(iocs[0]) || iocs[cmd] == 0)
		return ENOTTY;
	switch (cmd) {
	case DTRACE_CTL_BUFSNAP:
	case DTRACE_CTL_AGGSNAP:
	case DTRACE_CTL_EPROBE:
	case DTRACE_CTL_AGGDESC:
	case DTRACE_CTL_DOFGET:
		memset(&pp, 0, sizeof(pp));
		pp.ptr = arg;
		payload = &pp;
		break;
	case DTRACE_CTL_ENABLE:
		memset(&io, 0, sizeof(io));
		io.dof = arg;
		payload = &io;
		break;
	default:
		break;
	}
	if (dtrace_rump.ioctl(st->fd, iocs[cmd], payload) != 0)
		return dtrace_rump_errno(errno);
	if (cmd == DTRACE_CTL_ENABLE)
		*rv = io.n_matched;
	else if (cmd == DTRACE_CTL_GO || cmd == DTRACE_CTL_STOP)
		*rv = *(int32_t *)arg;
	return 0;
}

static int
dt_rump_ncpus(void *state)
{
	(void)state;
	return dtrace_rump.ncpus;
}

static const char *
dt_rump_errmsg(void *state)
{
	(void)state;
	return NULL; /* an ioctl says only its errno */
}

/* The rump kernel stays up for the life of the process. */
static void
dt_rump_close(void *state)
{
	dt_rump_t *st = state;

	(void)dtrace_rump.close(st->fd);
	free(st);
}

const dt_backend_t dt_backend_rump = {
	.name = "rump",
	.open = dt_rump_open,
	.ctl = dt_rump_ctl,
	.ncpus = dt_rump_ncpus,
	.errmsg = dt_rump_errmsg,
	.close = dt_rump_close,
};
