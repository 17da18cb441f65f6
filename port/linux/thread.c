/*
 * port/linux/thread.c: facts about the current thread (port.h section 7).
 *
 * Probe context runs in signal handlers, so everything here is
 * async-signal-safe: initial-exec TLS (no lazy allocation), raw system
 * calls, the vDSO.  pid and tid are cached per thread because every probe
 * needs them; a fork handler clears the child's copy.  execname is the
 * process's name (the main thread's comm, as DTrace's execname is the
 * process's), read once outside probe context and refreshed by
 * linux_thread_refresh_execname() after an exec-like change.  progenyof()
 * reads the ancestors' parents from /proc with raw system calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

static LINUX_TLS pid_t self_pid;
static LINUX_TLS pid_t self_tid;
LINUX_TLS const isa_regs_t *linux_trap_regs;

/* 16 = TASK_COMM_LEN, the kernel's limit on comm. */
static char execname[16];

pid_t
linux_self_pid(void)
{
	if (self_pid == 0)
		self_pid = (pid_t)syscall(SYS_getpid);
	return self_pid;
}

pid_t
linux_self_tid(void)
{
	if (self_tid == 0)
		self_tid = (pid_t)syscall(SYS_gettid);
	return self_tid;
}

uint64_t
linux_self_id(void)
{
	return ((uint64_t)(uint32_t)linux_self_pid() << 32) | (uint32_t)linux_self_tid();
}

void
linux_thread_forget(void)
{
	self_pid = 0;
	self_tid = 0;
}

void
linux_thread_refresh_execname(void)
{
	char buf[sizeof(execname) + 1];
	ssize_t n = -1;
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0) {
		/* No /proc: the calling thread's name is the best we have. */
		if (prctl(PR_GET_NAME, buf, 0, 0, 0) != 0)
			return;
		n = (ssize_t)strnlen(buf, sizeof(execname) - 1);
	}
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	if ((size_t)n >= sizeof(execname))
		n = sizeof(execname) - 1;
	memcpy(execname, buf, (size_t)n);
	execname[n] = '\0';
}

const char *
dtrace_port_curthread_execname(void)
{
	return execname;
}

static uint64_t
timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

uint64_t
dtrace_port_curthread_value(dtrace_thread_fact_t fact)
{
	struct timespec ts;
	int cpu;

	switch (fact) {
	case DTRACE_THR_PID:
		return (uint64_t)linux_self_pid();
	case DTRACE_THR_TID:
		return (uint64_t)linux_self_tid();
	case DTRACE_THR_PPID:
		return (uint64_t)syscall(SYS_getppid);
	case DTRACE_THR_UID:
		/* Effective ids, as DTrace's cr_uid/cr_gid (port.h).  Raw
		 * calls: Linux credentials are per thread, and the kernel's
		 * answer is the thread's own. */
		return (uint64_t)syscall(SYS_geteuid);
	case DTRACE_THR_GID:
		return (uint64_t)syscall(SYS_getegid);
	case DTRACE_THR_ERRNO:
		/* The signal handlers that fire probes restore errno on
		 * exit, so this is the interrupted code's errno. */
		return (uint64_t)errno;
	case DTRACE_THR_KEY:
		/* tids are unique among live threads of the pid namespace,
		 * across every process sharing the arena. */
		return linux_self_id();
	case DTRACE_THR_VTIME:
		if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
			return 0;
		return timespec_ns(&ts);
	case DTRACE_THR_HWCPU:
		cpu = sched_getcpu();
		return cpu < 0 ? 0 : (uint64_t)cpu;
	case DTRACE_THR_CURTHREAD:
		return (uint64_t)pthread_self();
	default:
		return 0;
	}
}

/*
 * The parent of process `pid` from /proc/<pid>/stat ("pid (comm) state ppid
 * ..."; comm may hold spaces and parentheses, so the last ')' ends it), or
 * -1 if it cannot be read.  Raw system calls, no stdio: probe context.
 */
static long
proc_parent(long pid)
{
	char path[32] = "/proc/", digits[24], buf[512], *p, *end = NULL;
	size_t len = 6;
	long fd, n, ppid = 0;
	int nd = 0;

	do
		digits[nd++] = (char)('0' + pid % 10);
	while ((pid /= 10) != 0);
	while (nd > 0)
		path[len++] = digits[--nd];
	memcpy(path + len, "/stat", sizeof("/stat"));

	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = syscall(SYS_read, (int)fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, (int)fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (p = buf; *p != '\0'; p++)
		if (*p == ')')
			end = p;
	/* ") S ppid": the state is one character */
	if (end == NULL || end[1] != ' ' || end[2] == '\0' || end[3] != ' ')
		return -1;
	for (p = end + 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return p == end + 4 ? -1 : ppid;
}

int
dtrace_port_curproc_progenyof(uint64_t pid)
{
	long cur = (long)syscall(SYS_getppid);

	if (pid == (uint64_t)linux_self_pid())
		return 1;
	/* up the chain of parents: pid 1's parent is 0, the root */
	for (int depth = 0; cur >= 0 && depth < 4096; depth++) {
		if ((uint64_t)cur == pid)
			return 1;
		if (cur == 0)
			break;
		cur = proc_parent(cur);
	}
	return 0;
}

/*
 * Device numbers are Linux's (the dev_t of stat(2) and of the kernel's
 * new_encode_dev()): glibc's major() and minor() split them, 12 + 32 bits
 * of major and 20 of minor.  Pure arithmetic, safe in a signal handler.
 */
uint64_t
dtrace_port_dev_major(uint64_t dev)
{
	return major((dev_t)dev);
}

uint64_t
dtrace_port_dev_minor(uint64_t dev)
{
	return minor((dev_t)dev);
}

/* ---- Time (port.h section 6): clock_gettime is served by the vDSO. ---- */

uint64_t
dtrace_port_gethrtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return timespec_ns(&ts);
}

uint64_t
dtrace_port_getwalltime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return timespec_ns(&ts);
}

ssize_t
linux_read_proc(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (size == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

bool
linux_task_exited(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *rp;

	if (tid == 0)
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (linux_read_proc(path, buf, sizeof(buf)) <= 0)
		return true;
	/* "pid (comm) S ...": the state follows the last ')' */
	if ((rp = strrchr(buf, ')')) == NULL || rp[1] == '\0' || rp[2] == '\0')
		return true;
	return rp[2] == 'Z' || rp[2] == 'X' || rp[2] == 'x';
}
