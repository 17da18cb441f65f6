/*
 * port/linux/jump.c: the consumer's half of jump-patched pid probes: the
 * jump_port_t that jump/ arms sites with, over a traced process's agent
 * (agent_jump.c; the messages are agent_proto.h's JUMP).
 *
 * Trampolines are allocated in the code arena as every trampoline is and
 * written through the consumer's view of it; the process runs them in a
 * view its agent mapped within a jump of the site (LINUX_JUMP_NEAR), at
 * the same offset.  Whether a thread could be among the bytes a jump
 * replaces, and serialising instruction fetch, are the agent's (it is
 * inside the process; agent_jump.c); the consumer asks and waits, bounded.
 * While another thread of the process runs, a site keeps its breakpoint
 * (EBUSY; and so do the sites enabled in the next second or two, unasked,
 * so that enabling a thousand sites does not wait 200 ms for each) and is
 * tried again at its next enabling; an agent that fails
 * otherwise (no membarrier, no answer) gets no more jumps.
 *
 * DTRACE_PID_JUMP=0 in the environment turns jumps off (every pid probe a
 * breakpoint), for comparison and as a way out.  Not probe context; the
 * engine's callers serialise (pid.c's lock).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_proto.h"
#include "jump.h"
#include "linux_impl.h"

#define JUMP_WAIT_NS 3000000000LL /* a quiesce may take the agent a second */

static pthread_mutex_t jump_lock = PTHREAD_MUTEX_INITIALIZER;

/* One request to the process's agent: its answer (>= 0) or -errno. */
static int64_t
jump_ask(linux_proc_t *p, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2)
{
	linux_agent_block_t *b = p->lp_block;
	struct timespec t0, t1, nap = {0, 20000};
	struct pollfd pfd = {p->lp_sock, POLLRDHUP, 0};
	uint64_t seq;
	int64_t ans = -ETIMEDOUT;
	int err;

	if (p->lp_state == LINUX_PROC_GONE || p->lp_nojump || b == NULL)
		return -ESRCH;
	pthread_mutex_lock(&jump_lock);
	b->lab_jop = op;
	b->lab_jarg[0] = a0;
	b->lab_jarg[1] = a1;
	b->lab_jarg[2] = a2;
	seq = __atomic_add_fetch(&b->lab_jseq, 1, __ATOMIC_ACQ_REL);
	if ((err = linux_agent_notify(p, LINUX_AGENT_JUMP)) != 0) {
		pthread_mutex_unlock(&jump_lock);
		return -err;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		/* the agent's word: believed only as the number it is */
		if (__atomic_load_n(&b->lab_counts->lac_jdone, __ATOMIC_ACQUIRE) == seq) {
			ans = __atomic_load_n(&b->lab_counts->lac_jans, __ATOMIC_RELAXED);
			break;
		}
		/* an agent that went (exit, exec, its end closed) never answers */
		pfd.revents = 0;
		if (p->lp_state == LINUX_PROC_GONE ||
		    (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR)) != 0)) {
			ans = -ESRCH;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec) > JUMP_WAIT_NS)
			break;
		nanosleep(&nap, NULL);
	}
	pthread_mutex_unlock(&jump_lock);
	/* one request unanswered: the rest would wait as long */
	if (ans == -ETIMEDOUT || ans == -ESRCH)
		p->lp_nojump = true;
	return ans;
}

static int
jump_tramp(void *as, uintptr_t near, size_t len, uintptr_t *run, uintptr_t *write)
{
	linux_proc_t *p = as;
	uintptr_t base, view = 0, w;
	size_t size;
	int64_t ans;
	int fd, err;

	if ((err = linux_code_info(&fd, &base, &size)) != 0)
		return err;
	for (unsigned i = 0; i < p->lp_njviews && view == 0; i++)
		if (linux_jump_reaches(p->lp_jviews[i], size, near))
			view = p->lp_jviews[i];
	if (view == 0) {
		if (p->lp_njviews == sizeof(p->lp_jviews) / sizeof(p->lp_jviews[0]))
			return DTRACE_ENOSPC;
		ans = jump_ask(p, LINUX_JUMP_NEAR, near, 0, 0);
		if (ans < 0)
			return (int)-ans;
		/* where the agent says it mapped it: if it lies, only its
		 * own process jumps astray */
		if (((uint64_t)ans & 4095) != 0 || !linux_jump_reaches((uintptr_t)ans, size, near))
			return DTRACE_EINVAL;
		view = (uintptr_t)ans;
		p->lp_jviews[p->lp_njviews++] = view;
	}
	if ((err = dtrace_port_tramp_alloc(as, len, &w)) != 0)
		return err;
	*write = w;
	*run = view + (w - base);
	return 0;
}

static uintptr_t
jump_entry(void *as)
{
	linux_proc_t *p = as;

	return p->lp_nojump ? 0 : p->lp_jentry;
}

static int
jump_quiesce(void *as, uintptr_t lo, uintptr_t hi, uintptr_t to)
{
	linux_proc_t *p = as;
	int64_t ans;

	struct timespec now;

	(void)to; /* the agent moves no thread: it says whether one runs */
	if (p->lp_nojump)
		return DTRACE_ENOTSUP;
	/* after a "busy" (the agent looked for 200 ms), the sites enabled in
	 * the next second or two keep their breakpoints without asking */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < p->lp_jbusy_until)
		return DTRACE_EBUSY;
	if ((ans = jump_ask(p, LINUX_JUMP_QUIESCE, lo, hi, 0)) == 0)
		return 0;
	if (ans == -EBUSY) { /* a thread runs: the breakpoint serves, for now */
		clock_gettime(CLOCK_MONOTONIC, &now);
		p->lp_jbusy_until = now.tv_sec + 2;
		return DTRACE_EBUSY;
	}
	p->lp_nojump = true;
	return ans < 0 ? (int)-ans : DTRACE_EINVAL;
}

static int
jump_sync(void *as)
{
	int64_t ans = jump_ask(as, LINUX_JUMP_SYNC, 0, 0, 0);

	return ans == 0 ? 0 : ans < 0 ? (int)-ans : DTRACE_EINVAL;
}

/* The executable mapping holding addr, from /proc/<pid>/maps. */
static int
jump_text(void *as, uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	linux_proc_t *p = as;
	char path[64], line[4096 + 128], perms[8];
	unsigned long a, b;
	FILE *f;
	int err = DTRACE_ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->lp_pid);
	if ((f = fopen(path, "re")) == NULL)
		return errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perms) != 3 || addr < a || addr >= b)
			continue;
		if (perms[2] == 'x') {
			*lo = a;
			*hi = b;
			err = 0;
		}
		break;
	}
	fclose(f);
	return err;
}

static const jump_port_t linux_jump_port = {
	jump_tramp, jump_entry, jump_quiesce, jump_sync, jump_text,
};

void
linux_jump_init(void)
{
	const char *env = getenv("DTRACE_PID_JUMP");

	if (env != NULL && strcmp(env, "0") == 0)
		return;
	(void)jump_init(&linux_jump_port); /* ENOTSUP: an ISA without jumps */
}

void
linux_jump_forget(linux_proc_t *p)
{
	jump_space_forget((uint64_t)p->lp_pid);
}

void
linux_jump_fini(void)
{
	jump_fini();
}
