/*
 * dt_work.c: the tracing life cycle.  dtrace_go() hands the options and the
 * library's ERROR enabling to the core and starts tracing (BEGIN fires);
 * dtrace_work() then reads status, aggregations and buffers, each no more
 * often than its rate (statusrate, aggrate, switchrate), and dtrace_sleep()
 * waits for the earliest of those deadlines.  exit() in D, a filled "fill"
 * buffer or dtrace_stop() end the run: END fires, and the next
 * dtrace_work() drains everything and says DONE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dt_impl.h"

int
dtrace_go(dtrace_hdl_t *dtp)
{
	int cpu = -1;

	if (dtp->dt_active)
		return dt_set_errno(dtp, EINVAL);

	/* The consumer's defaults, as the dtrace command and DTrace use them. */
	if (dtp->dt_options[DTRACEOPT_BUFSIZE] == DTRACEOPT_UNSET)
		dtp->dt_options[DTRACEOPT_BUFSIZE] = 4 * 1024 * 1024;
	if (dtp->dt_options[DTRACEOPT_AGGSIZE] == DTRACEOPT_UNSET)
		dtp->dt_options[DTRACEOPT_AGGSIZE] = 4 * 1024 * 1024;

	if (dtp->dt_errprog_on && dt_program_errprog(dtp) != 0)
		return -1;
	if (dt_program_options(dtp) != 0)
		return -1;

	if (dt_ctl(dtp, DTRACE_CTL_GO, &cpu, &cpu) != 0) {
		switch (dtp->dt_errno) {
		case EACCES:
			return dt_set_errno(dtp, EDT_DESTRUCTIVE);
		case E2BIG:
			return dt_set_errno(dtp, EDT_ENDTOOBIG);
		case ENOSPC:
			return dt_set_errno(dtp, EDT_BUFTOOSMALL);
		default:
			return -1;
		}
	}
	dtp->dt_beganon = cpu;
	dtp->dt_active = 1;

	/* The core may have settled on other values (smaller buffers);
	 * without an answer the values handed in stand. */
	(void)dt_options_load(dtp);
	dt_options_defaults(dtp);
	return dt_aggregate_go(dtp);
}

int
dtrace_stop(dtrace_hdl_t *dtp)
{
	int gen = dtp->dt_statusgen, cpu = -1;

	if (dtp->dt_stopped)
		return 0;
	if (!dtp->dt_active)
		return dt_set_errno(dtp, EINVAL);
	if (dt_ctl(dtp, DTRACE_CTL_STOP, &cpu, &cpu) != 0)
		return -1;
	dtp->dt_endedon = cpu;
	dtp->dt_stopped = 1;

	/* one last status, for drops that happened at the very end */
	if (dt_ctl(dtp, DTRACE_CTL_STATUS, &dtp->dt_status[gen], NULL) != 0)
		return -1;
	return dt_handle_status(dtp, &dtp->dt_status[gen ^ 1], &dtp->dt_status[gen]);
}

int
dtrace_status(dtrace_hdl_t *dtp)
{
	dtrace_optval_t interval = dtp->dt_options[DTRACEOPT_STATUSRATE];
	int gen = dtp->dt_statusgen;
	int64_t now = dt_gethrtime();

	if (!dtp->dt_active)
		return DTRACE_STATUS_NONE;
	if (dtp->dt_stopped)
		return DTRACE_STATUS_STOPPED;

	if (dtp->dt_laststatus != 0) {
		if (now - dtp->dt_laststatus < interval)
			return DTRACE_STATUS_NONE;
		dtp->dt_laststatus += interval;
	} else {
		dtp->dt_laststatus = now;
	}

	if (dt_ctl(dtp, DTRACE_CTL_STATUS, &dtp->dt_status[gen], NULL) != 0)
		return -1;
	dtp->dt_statusgen ^= 1;
	if (dt_handle_status(dtp, &dtp->dt_status[dtp->dt_statusgen], &dtp->dt_status[gen]) != 0)
		return -1;

	if (dtp->dt_status[gen].dtst_exiting) {
		if (!dtp->dt_stopped && dtrace_stop(dtp) != 0)
			return -1;
		return DTRACE_STATUS_EXITED;
	}
	if (dtp->dt_status[gen].dtst_filled == 0 ||
	    dtp->dt_options[DTRACEOPT_BUFPOLICY] != DTRACEOPT_BUFPOLICY_FILL)
		return DTRACE_STATUS_OKAY;
	if (!dtp->dt_filled) {
		if (dtrace_stop(dtp) != 0)
			return -1;
		dtp->dt_filled = 1;
	}
	return DTRACE_STATUS_FILLED;
}

dtrace_workstatus_t
dtrace_work(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pfunc,
	    dtrace_consume_rec_f *rfunc, void *arg)
{
	int status = dtrace_status(dtp);
	dtrace_optval_t policy = dtp->dt_options[DTRACEOPT_BUFPOLICY];
	dtrace_workstatus_t rval;

	switch (status) {
	case DTRACE_STATUS_EXITED:
	case DTRACE_STATUS_FILLED:
	case DTRACE_STATUS_STOPPED:
		/* stopped: read everything now, whatever the rates say */
		dtp->dt_lastswitch = 0;
		dtp->dt_lastagg = 0;
		rval = DTRACE_WORKSTATUS_DONE;
		break;
	case DTRACE_STATUS_NONE:
	case DTRACE_STATUS_OKAY:
		rval = DTRACE_WORKSTATUS_OKAY;
		break;
	default:
		return DTRACE_WORKSTATUS_ERROR;
	}

	/* ring and fill buffers are read once, after the run */
	if (rval == DTRACE_WORKSTATUS_OKAY && policy != DTRACEOPT_BUFPOLICY_SWITCH)
		return rval;

	if (dtrace_aggregate_snap(dtp) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if (dtrace_consume(dtp, fp, pfunc, rfunc, arg) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	return rval;
}

void
dtrace_sleep(dtrace_hdl_t *dtp)
{
	const struct {
		int opt;
		int64_t last;
	} deadlines[] = {
		{DTRACEOPT_SWITCHRATE, dtp->dt_lastswitch},
		{DTRACEOPT_AGGRATE, dtp->dt_lastagg},
		{DTRACEOPT_STATUSRATE, dtp->dt_laststatus},
	};
	dtrace_optval_t policy = dtp->dt_options[DTRACEOPT_BUFPOLICY];
	int64_t earliest = INT64_MAX, now;
	struct timespec tv;
	size_t i;

	for (i = 0; i < sizeof(deadlines) / sizeof(deadlines[0]); i++) {
		dtrace_optval_t interval = dtp->dt_options[deadlines[i].opt];

		/* without the switch policy only status matters while running */
		if (policy != DTRACEOPT_BUFPOLICY_SWITCH && deadlines[i].opt != DTRACEOPT_STATUSRATE)
			continue;
		if (interval == DTRACEOPT_UNSET)
			continue;
		if (deadlines[i].last + interval < earliest)
			earliest = deadlines[i].last + interval;
	}
	now = dt_gethrtime();
	if (earliest <= now)
		return;
	tv.tv_sec = (time_t)((earliest - now) / DTRACE_NANOSEC);
	tv.tv_nsec = (long)((earliest - now) % DTRACE_NANOSEC);
	/* a signal (SIGINT for the dtrace command) ends the sleep early */
	(void)nanosleep(&tv, NULL);
}
