/*
 * port/linux/agent_jump.c: the agent's half of jump-patched probes
 * (jump/; the consumer's half is jump.c).
 *
 * The consumer writes trampolines into the code arena, which every agent
 * maps at one address far from any program text (8 TiB and up): out of a
 * 5-byte jump's reach.  So the agent maps the same memfd again, read and
 * execute, within reach of the text asked for (LINUX_JUMP_NEAR), below it
 * first: above an executable lies its heap, which must stay free to grow.
 * Every trampoline is position-independent, so each such view runs the
 * same bytes.
 *
 * Before a jump replaces a site's first instructions, no thread may be
 * among them, nor be able to come back there but through the site's
 * breakpoint (which resumes in the trampoline's copy): LINUX_JUMP_QUIESCE
 * answers yes only when every other thread is blocked where
 * /proc/self/task/<tid>/syscall shows its PC, outside the range (a thread
 * in a system call is after a syscall instruction, which no jump
 * replaces).  A thread that runs could be anywhere, and asking it where
 * costs a signal that can merge with the SIGTRAP of a breakpoint it is
 * taking at that instant (SIGTRAP is not queued twice), which would then
 * be lost: so while another thread runs (looked at again every
 * millisecond for 200 ms), the request says EBUSY and the site keeps its
 * breakpoint, to be tried again at its next enabling.
 * That covers `dtrace -c` (probes are placed while the program is held
 * before it runs, by its own thread), `-p` of a program whose threads
 * wait, and objects loaded by a program whose other threads wait.  Not
 * covered: a thread a signal interrupted among the replaced bytes whose
 * handler is blocked in a system call when the jump is written, and a
 * vfork child inside them at that instant.
 *
 * Instruction fetch is serialised with membarrier(SYNC_CORE) (Linux 4.16;
 * without it, no site is jumped).  These requests run in the agent's
 * thread (agent.c), never in probe context.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent_proto.h"
#include "linux_impl.h"

#define JUMP_MAXVIEWS 32
#define JUMP_QUIET_TRIES 200 /* 1 ms apart */
#define JUMP_STEP ((uintptr_t)64 << 20)

static uintptr_t jump_views[JUMP_MAXVIEWS];
static unsigned jump_nviews;
static int jump_membarrier = -1;

uint64_t
linux_agent_jump_entry(void)
{
	return (uint64_t)(uintptr_t)linux_agent_jump_fire;
}

void
linux_agent_jump_forget(void)
{
	jump_nviews = 0; /* the mappings stay: threads may be in them */
}

static int
jump_sync(void)
{
	if (jump_membarrier < 0)
		jump_membarrier = syscall(SYS_membarrier,
					  LINUX_MEMBARRIER_REGISTER_SYNC_CORE, 0) == 0;
	if (!jump_membarrier)
		return -ENOSYS;
	if (syscall(SYS_membarrier, LINUX_MEMBARRIER_SYNC_CORE, 0) != 0)
		return -errno;
	return 0;
}

/* A view of the code arena within a jump of `near`: its address, or -errno. */
static int64_t
jump_near(uintptr_t near)
{
	size_t size;
	int fd = linux_code_fd(&size);
	uintptr_t base = near & ~(JUMP_STEP - 1), hint;
	void *v;

	if (fd < 0 || size == 0)
		return -EBADF;
	for (unsigned i = 0; i < jump_nviews; i++)
		if (linux_jump_reaches(jump_views[i], size, near))
			return (int64_t)jump_views[i];
	if (jump_nviews == JUMP_MAXVIEWS)
		return -ENOSPC;
	for (int pass = 0; pass < 2; pass++) {
		for (uintptr_t k = 1; k * JUMP_STEP + size < LINUX_JUMP_REACH; k++) {
			hint = pass == 0 ? base - k * JUMP_STEP - size : base + k * JUMP_STEP;
			if (pass == 0 && base < k * JUMP_STEP + size)
				break;
			if (!linux_jump_reaches(hint, size, near))
				continue;
			v = mmap((void *)hint, size, PROT_READ | PROT_EXEC,
				 MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
			if (v == MAP_FAILED)
				continue;
			if (v != (void *)hint) { /* a kernel without NOREPLACE */
				munmap(v, size);
				continue;
			}
			jump_views[jump_nviews++] = hint;
			return (int64_t)hint;
		}
	}
	return -ENOMEM;
}

/* Does thread `tid` run, or is it blocked with its PC in (lo, hi)? */
static bool
jump_runs_or_inside(pid_t tid, uintptr_t lo, uintptr_t hi)
{
	char path[64], line[512], *last;
	unsigned long long pc;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	if ((n = linux_read_proc(path, line, sizeof(line))) <= 0)
		return true;
	if (strncmp(line, "running", 7) == 0)
		return true;
	/* "nr args... sp pc" or "-1 sp pc": the PC is the last field */
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if ((last = strrchr(line, ' ')) == NULL)
		return true;
	pc = strtoull(last + 1, NULL, 16);
	return pc > lo && pc < hi;
}

static int64_t
jump_quiesce(uintptr_t lo, uintptr_t hi)
{
	pid_t me = (pid_t)syscall(SYS_gettid);
	struct timespec nap = {0, 1000000};
	struct dirent *de;
	int64_t ans = 0;
	DIR *d;
	int err;

	if ((err = jump_sync()) != 0)
		return err;
	/* a thread that mostly waits is caught waiting within a few tries */
	for (int tries = 0; tries < JUMP_QUIET_TRIES; tries++) {
		if (tries > 0)
			nanosleep(&nap, NULL);
		if ((d = opendir("/proc/self/task")) == NULL)
			return -errno;
		ans = 0;
		while ((de = readdir(d)) != NULL && ans == 0) {
			pid_t tid = (pid_t)atoi(de->d_name);

			if (tid > 0 && tid != me && jump_runs_or_inside(tid, lo, hi))
				ans = -EBUSY;
		}
		closedir(d);
		if (ans == 0)
			return jump_sync();
	}
	return ans;
}

void
linux_agent_jump_request(linux_agent_block_t *b)
{
	uint64_t seq;
	int64_t ans;

	if (b == NULL)
		return;
	seq = __atomic_load_n(&b->lab_jseq, __ATOMIC_ACQUIRE);
	if (seq == __atomic_load_n(&b->lab_counts->lac_jdone, __ATOMIC_ACQUIRE))
		return;
	switch (b->lab_jop) {
	case LINUX_JUMP_NEAR:
		ans = jump_near((uintptr_t)b->lab_jarg[0]);
		break;
	case LINUX_JUMP_QUIESCE:
		ans = jump_quiesce((uintptr_t)b->lab_jarg[0], (uintptr_t)b->lab_jarg[1]);
		break;
	case LINUX_JUMP_SYNC:
		ans = jump_sync();
		break;
	default:
		ans = -EINVAL;
		break;
	}
	__atomic_store_n(&b->lab_counts->lac_jans, ans, __ATOMIC_RELAXED);
	__atomic_store_n(&b->lab_counts->lac_jdone, seq, __ATOMIC_RELEASE);
}
