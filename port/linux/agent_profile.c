/*
 * port/linux/agent_profile.c: profile-N inside a traced process.
 *
 * The consumer publishes its enabled profile-N probes in the process's
 * block (profile.c); the agent's thread arms one POSIX timer per probe on
 * the process's CPU-time clock, so a process keeping one CPU busy samples
 * at N per second and one using two at 2N, as DTrace's per-CPU profile
 * probes would see it, and an idle process is not sampled at all -- up to
 * the kernel's tick rate: CPU-time timers expire only at a tick (CONFIG_HZ
 * per second of CPU time), so above that N gives fewer samples.  Expiry
 * is SIGPROF; the kernel sends a process-directed timer signal to the
 * thread that was running, whose registers the probe then samples.  Our
 * expiries carry the probe's slot in si_value; any other SIGPROF (the
 * program's own profiler) goes to the handler that was there before.
 * The handler is probe context: no allocation, no lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "agent_proto.h"
#include "dtrace.h"
#include "linux_impl.h"

#define PROF_MAGIC 0x70726f6600000000ULL /* "prof" in the high half */

typedef struct agent_prof {
	volatile uint32_t ap_id; /* probe fired; 0: slot unused */
	bool ap_armed;
	timer_t ap_timer;
	uint64_t ap_interval;
} agent_prof_t;

static agent_prof_t prof[LINUX_AGENT_MAXPROF];
static struct sigaction prof_previous;
static bool prof_installed;

static void
prof_chain(int sig, siginfo_t *si, void *ctx)
{
	if (prof_previous.sa_flags & SA_SIGINFO) {
		if (prof_previous.sa_sigaction != NULL)
			prof_previous.sa_sigaction(sig, si, ctx);
	} else if (prof_previous.sa_handler != SIG_DFL && prof_previous.sa_handler != SIG_IGN) {
		prof_previous.sa_handler(sig);
	}
	/* SIG_DFL would terminate the program: a late expiry of one of our
	 * timers after it was deleted must not, and nothing else of ours
	 * sends SIGPROF, so the default is not replayed. */
}

static void
prof_handler(int sig, siginfo_t *si, void *ctx)
{
	const isa_regs_t *outer = linux_trap_regs;
	uint64_t v = (uint64_t)(uintptr_t)si->si_value.sival_ptr;
	int *ep = linux_errno(), saved = *ep;
	isa_regs_t regs;
	uint32_t slot, id;

	if (si->si_code != SI_TIMER || (v & 0xffffffff00000000ULL) != PROF_MAGIC ||
	    (slot = (uint32_t)v) >= LINUX_AGENT_MAXPROF) {
		prof_chain(sig, si, ctx);
		*ep = saved;
		return;
	}
	if ((id = prof[slot].ap_id) != 0) {
		linux_mcontext_to_regs(ctx, &regs);
		linux_trap_regs = &regs;
		/* arg0: the kernel PC (none here); arg1: the user PC */
		dtrace_probe(id, 0, isa_regs_pc(&regs), 0, 0, 0);
		linux_trap_regs = outer;
	}
	*ep = saved;
}

static int
prof_install(void)
{
	struct sigaction sa;

	if (prof_installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prof_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, &prof_previous) != 0)
		return errno;
	prof_installed = true;
	return 0;
}

static void
prof_disarm(agent_prof_t *ap)
{
	ap->ap_id = 0;
	if (ap->ap_armed)
		timer_delete(ap->ap_timer);
	ap->ap_armed = false;
}

static int
prof_arm(agent_prof_t *ap, uint32_t slot, uint32_t id, uint64_t interval)
{
	struct sigevent sev;
	struct itimerspec its;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGPROF;
	sev.sigev_value.sival_ptr = (void *)(uintptr_t)(PROF_MAGIC | slot);
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &ap->ap_timer) != 0)
		return errno;
	ap->ap_armed = true;
	ap->ap_interval = interval;
	ap->ap_id = id;
	its.it_interval.tv_sec = (time_t)(interval / 1000000000ULL);
	its.it_interval.tv_nsec = (long)(interval % 1000000000ULL);
	its.it_value = its.it_interval;
	if (timer_settime(ap->ap_timer, 0, &its, NULL) != 0) {
		prof_disarm(ap);
		return errno;
	}
	return 0;
}

/* The agent's thread: make the armed timers what the block says. */
void
linux_agent_profile_sync(linux_agent_block_t *b)
{
	uint32_t i;

	if (b == NULL || prof_install() != 0)
		return;
	for (i = 0; i < LINUX_AGENT_MAXPROF; i++) {
		uint32_t id = __atomic_load_n(&b->lab_prof[i].lap_id, __ATOMIC_ACQUIRE);
		uint64_t interval = b->lab_prof[i].lap_interval;

		if (prof[i].ap_id == id && (id == 0 || prof[i].ap_interval == interval))
			continue;
		prof_disarm(&prof[i]);
		if (id != 0 && interval != 0)
			(void)prof_arm(&prof[i], i, id, interval);
	}
}

void
linux_agent_profile_stop(void)
{
	for (uint32_t i = 0; i < LINUX_AGENT_MAXPROF; i++)
		prof_disarm(&prof[i]);
}

/* A forked child has no timers (they are not inherited): forget ours. */
void
linux_agent_profile_forget(void)
{
	for (uint32_t i = 0; i < LINUX_AGENT_MAXPROF; i++) {
		prof[i].ap_id = 0;
		prof[i].ap_armed = false;
	}
}
