/*
 * port/linux/proc.c: the processes the consumer traces, and their agents.
 *
 * A traced process runs the agent (agent.c), a copy of the core, the
 * engine and this port that fires probes in the process's own signal
 * handlers.  This file is the consumer's half: it brings an agent up (a
 * preloaded one for `dtrace -c`, an injected one for `dtrace -p`, see
 * inject.c), hands it the arena and the code arena, registers the
 * process's `pid<N>` provider (pid.c), and runs one control thread per
 * process that reads the agent's messages (module changes) and notices
 * the process going (end-of-file on the connection: exit or exec).
 *
 * A linux_proc_t is the `as` handle port.h's text and module functions
 * take for that process.  Its text is read and written through
 * /proc/<pid>/mem, which needs the same permission as ptrace attach: the
 * kernel, not this file, decides who may trace whom.
 *
 * Locking: proc_lock (process-local) guards the list; each process's
 * fields are written before it is published and then only by its control
 * thread (lp_state).  Not probe context.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "agent_proto.h"
#include "dtrace.h"
#include "host.h"
#include "inst.h"
#include "linux_impl.h"
#include "usdt.h"

static pthread_mutex_t proc_lock = PTHREAD_MUTEX_INITIALIZER;
static linux_proc_t *procs;

#define HANDSHAKE_MS 10000 /* a loaded machine may take a while to exec */

/* ---- The list ------------------------------------------------------------ */

linux_proc_t *
linux_proc_lookup(pid_t pid)
{
	linux_proc_t *p;

	pthread_mutex_lock(&proc_lock);
	for (p = procs; p != NULL; p = p->lp_next)
		if (p->lp_pid == pid)
			break;
	pthread_mutex_unlock(&proc_lock);
	return p;
}

/* ---- The control thread -------------------------------------------------- */

static void
futex_wake_all(volatile uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/*
 * Did the process exec (rather than exit)?  By the time its agent's
 * connection closes, an exiting process has dropped its memory (its maps
 * read empty, as a zombie's do), while one that exec'd has a new image
 * without the arena in it -- soon: the close-on-exec descriptors close
 * before the new program's segments are mapped, so for a moment an
 * exec'd process's maps read empty too.  Empty maps are therefore read
 * again until the process is a zombie or gone (it exited) or has mappings
 * (it exec'd), for at most a second.
 */
static int
proc_maps_state(pid_t pid)
{
	char path[64], line[512];
	bool any = false, arena = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		any = true;
		if (strstr(line, "dtrace-arena") != NULL)
			arena = true;
	}
	fclose(f);
	return !any ? 0 : arena ? 2 : 1;
}

static bool
proc_execd(pid_t pid)
{
	struct timespec ms = {0, 1000000};
	int i, st;

	for (i = 0; i < 1000; i++) {
		if ((st = proc_maps_state(pid)) != 0)
			return st == 1;
		if (linux_task_exited(pid, 0))
			return false;
		nanosleep(&ms, NULL);
	}
	return false;
}

static void *
proc_control(void *arg)
{
	linux_proc_t *p = arg;
	linux_agent_msg_t m;
	int err;

	for (;;) {
		err = linux_agent_recv(p->lp_sock, &m, NULL, 0, NULL, -1);
		if (err == ECONNRESET || err == ECONNREFUSED || err == EBADF || err == ENOTCONN)
			break;
		if (err != 0)
			continue;
		if (m.am_type == LINUX_AGENT_MODULES) {
			linux_pid_modules_changed(p);
			linux_usdt_scan(p);
			linux_syscall_modules_changed(p);
			p->lp_block->lab_modack = (uint32_t)m.am_arg[0];
			futex_wake_all(&p->lp_block->lab_modack);
		}
	}
	/* The agent's end closed: the process exited or exec'd (its sockets
	 * are close-on-exec), or the agent gave up.  Its text is no longer
	 * ours to mend. */
	p->lp_execd = proc_execd(p->lp_pid);
	linux_pid_process_gone(p);
	linux_usdt_process_gone(p);
	p->lp_state = LINUX_PROC_GONE;
	return NULL;
}

/* ---- Bringing an agent up ------------------------------------------------ */


/* What a SETUP step the agent reports as failed was doing. */
static const char *
proc_setup_step(int step)
{
	switch (step) {
	case LINUX_AGENT_STEP_ARENA:
		return "map the consumer's memory";
	case LINUX_AGENT_STEP_CODE:
		return "map the consumer's trampolines";
	case LINUX_AGENT_STEP_ATTACH:
		return "adopt the consumer's tables";
	case LINUX_AGENT_STEP_TRAPS:
		return "install its trap handlers";
	default:
		return "set up";
	}
}
static int
proc_handshake(linux_proc_t *p, char *errbuf, size_t errlen)
{
	linux_agent_msg_t m;
	int fds[3], err;
	uintptr_t code_base;
	size_t code_size;

	if ((err = linux_agent_recv(p->lp_sock, &m, NULL, 0, NULL, HANDSHAKE_MS)) != 0 ||
	    m.am_type != LINUX_AGENT_HELLO) {
		snprintf(errbuf, errlen, "the agent did not start in pid %d: %s", (int)p->lp_pid,
			 err != 0 ? strerror(err) : "unexpected message");
		return err != 0 ? err : EPROTO;
	}
	p->lp_rbrk = (uintptr_t)m.am_arg[AM_HELLO_RBRK];
	p->lp_jentry = (uintptr_t)m.am_arg[AM_HELLO_JUMP];
	if (m.am_arg[AM_HELLO_VERSION] != LINUX_AGENT_VERSION) {
		snprintf(errbuf, errlen, "pid %d runs an agent of another version (%llu, not %d)",
			 (int)p->lp_pid, (unsigned long long)m.am_arg[AM_HELLO_VERSION],
			 LINUX_AGENT_VERSION);
		return EPROTO;
	}
	if ((err = linux_code_info(&fds[1], &code_base, &code_size)) != 0) {
		snprintf(errbuf, errlen, "no code arena: %s", strerror(err));
		return err;
	}
	fds[0] = linux_arena_fd();
	if ((fds[2] = linux_arena_rofd()) < 0) {
		err = errno;
		snprintf(errbuf, errlen, "no read-only view of the arena: %s", strerror(err));
		return err;
	}
	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_SETUP;
	m.am_pid = (uint32_t)p->lp_pid;
	m.am_arg[AM_ARENA_BASE] = (uint64_t)(uintptr_t)linux_arena;
	m.am_arg[AM_ARENA_SIZE] = linux_arena->la_size;
	m.am_arg[AM_CODE_BASE] = code_base;
	m.am_arg[AM_CODE_SIZE] = code_size;
	m.am_arg[AM_CORE] = (uint64_t)(uintptr_t)dtrace_globals_handle();
	m.am_arg[AM_INST] = (uint64_t)(uintptr_t)inst_handle();
	m.am_arg[AM_BLOCK] = (uint64_t)(uintptr_t)p->lp_block;
	err = linux_agent_send(p->lp_sock, &m, fds, 3);
	close(fds[2]);
	if (err != 0) {
		snprintf(errbuf, errlen, "cannot reach the agent in pid %d: %s", (int)p->lp_pid,
			 strerror(err));
		return err;
	}
	if ((err = linux_agent_recv(p->lp_sock, &m, NULL, 0, NULL, HANDSHAKE_MS)) != 0 ||
	    m.am_type != LINUX_AGENT_READY) {
		if (err == 0 && m.am_type == LINUX_AGENT_FAIL)
			snprintf(errbuf, errlen, "the agent in pid %d could not %s: %s",
				 (int)p->lp_pid, proc_setup_step((int)m.am_arg[AM_FAIL_STEP]),
				 strerror((int)m.am_arg[AM_FAIL_ERRNO]));
		else
			snprintf(errbuf, errlen, "the agent in pid %d did not answer: %s",
				 (int)p->lp_pid, err != 0 ? strerror(err) : "unexpected message");
		return err != 0 ? err : EPROTO;
	}
	return 0;
}

/*
 * Take charge of process `pid` whose agent is (or will be) at the other
 * end of `sock`: handshake, provider, control thread.  The socket is ours
 * from here on, whatever happens.
 */
int
linux_proc_adopt(pid_t pid, int sock, bool created, char *errbuf, size_t errlen)
{
	linux_proc_t *p;
	char path[64];
	int err;

	if ((p = calloc(1, sizeof(*p))) == NULL) {
		close(sock);
		snprintf(errbuf, errlen, "out of memory");
		return ENOMEM;
	}
	p->lp_pid = pid;
	p->lp_sock = sock;
	p->lp_created = created;
	p->lp_state = LINUX_PROC_ATTACHING;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if ((p->lp_memfd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		err = errno;
		snprintf(errbuf, errlen, "failed to grab pid %d: %s", (int)pid, strerror(err));
		close(sock);
		free(p);
		return err;
	}
	if ((p->lp_block = dtrace_port_zalloc(sizeof(*p->lp_block))) == NULL) {
		err = ENOMEM;
		snprintf(errbuf, errlen, "out of memory");
		goto fail;
	}
	p->lp_block->lab_pid = (uint64_t)pid;
	if ((p->lp_block->lab_counts = dtrace_port_zalloc_probe(sizeof(linux_agent_counts_t))) ==
	    NULL) {
		err = ENOMEM;
		snprintf(errbuf, errlen, "out of memory");
		goto fail;
	}
	if ((err = linux_pid_init()) != 0) {
		snprintf(errbuf, errlen, "out of memory");
		goto fail;
	}
	(void)dtrace_linux_proc_exe(pid, p->lp_exe, sizeof(p->lp_exe));
	if ((err = proc_handshake(p, errbuf, errlen)) != 0)
		goto fail;
	if ((err = linux_pid_register(p)) != 0) {
		snprintf(errbuf, errlen, "failed to create the pid provider for pid %d: %s", (int)pid,
			 strerror(err));
		goto fail;
	}
	/* Hear of dlopen and dlclose: a hook at the dynamic linker's
	 * breakpoint (without one, only the objects loaded now are seen).
	 * That is a breakpoint too, met by any thread that loads a library
	 * (glibc's NSS loads its modules from whatever thread asks), so the
	 * signal guard goes in first, whatever the probes. */
	if (p->lp_rbrk != 0) {
		linux_proc_guard(p);
		(void)linux_pid_watch_modules(p);
	}
	p->lp_state = LINUX_PROC_RUNNING;
	linux_usdt_scan(p); /* the providers its objects describe */
	pthread_mutex_lock(&proc_lock);
	p->lp_next = procs;
	procs = p;
	pthread_mutex_unlock(&proc_lock);
	if ((err = pthread_create(&p->lp_thread, NULL, proc_control, p)) == 0)
		p->lp_thread_started = true;
	linux_profile_proc_added(p);
	linux_syscall_proc_added(p);
	return 0;
fail:
	if (p->lp_block != NULL) {
		dtrace_port_free_probe(p->lp_block->lab_counts, sizeof(linux_agent_counts_t));
		dtrace_port_free(p->lp_block, sizeof(*p->lp_block));
	}
	close(p->lp_memfd);
	close(sock);
	free(p);
	return err;
}

int
dtrace_linux_proc_socketpair(int *consumer_end, int *agent_end)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return errno;
	*consumer_end = sv[0];
	*agent_end = sv[1];
	return 0;
}

int
dtrace_linux_proc_check(const char *path, char *errbuf, size_t errlen)
{
	struct stat st;
	bool interp = false;
	GElf_Phdr ph;
	size_t i, n;
	Elf *elf;
	int fd;

	if (stat(path, &st) != 0)
		return errno;
	if (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
	    ((st.st_mode & S_ISGID) && st.st_gid != getegid())) {
		snprintf(errbuf, errlen,
			 "a set-user-ID or set-group-ID program runs without the agent (the "
			 "dynamic linker ignores LD_PRELOAD there)");
		return EPERM;
	}
	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0; /* a script, say: its interpreter is what runs */
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL && elf_kind(elf) == ELF_K_ELF &&
	    elf_getphdrnum(elf, &n) == 0) {
		for (i = 0; i < n; i++)
			if (gelf_getphdr(elf, (int)i, &ph) != NULL && ph.p_type == PT_INTERP)
				interp = true;
		if (!interp) {
			elf_end(elf);
			close(fd);
			snprintf(errbuf, errlen,
				 "a statically linked program cannot load the agent (no dynamic "
				 "linker to preload it)");
			return ENOEXEC;
		}
	}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return 0;
}

const char *
dtrace_linux_agent_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("DTRACE_AGENT");

	if (env != NULL && env[0] != '\0')
		return env;
	if (access(DTRACE_AGENT_BUILD_PATH, R_OK) == 0)
		return DTRACE_AGENT_BUILD_PATH;
	snprintf(path, sizeof(path), "%s", DTRACE_AGENT_INSTALL_PATH);
	return path;
}

int
dtrace_linux_proc_created(pid_t pid, int consumer_end, char *errbuf, size_t errlen)
{
	int err;

	if ((err = dtrace_linux_host_init()) != 0) {
		close(consumer_end);
		snprintf(errbuf, errlen, "cannot start the host: %s", strerror(err));
		return err;
	}
	return linux_proc_adopt(pid, consumer_end, true, errbuf, errlen);
}

int
linux_agent_notify(linux_proc_t *p, uint32_t type)
{
	linux_agent_msg_t m;

	memset(&m, 0, sizeof(m));
	m.am_type = type;
	return linux_agent_send(p->lp_sock, &m, NULL, 0);
}

#define PROC_GUARD_WAIT_MS 2000

/*
 * Before the first breakpoint goes into a process (the loader hook's, at
 * its arrival, then any pid or USDT probe's): ask its agent
 * to keep SIGTRAP out of every signal mask and its handler in place (see
 * agent_syscall.c), and wait (bounded) for the answer.  A thread that
 * blocks SIGTRAP and meets a breakpoint would be killed by the kernel.
 * Refused (no seccomp, randomization off, a thread already blocking
 * SIGSYS), the probes are placed all the same, as before there was a
 * guard, and dtrace says what a program that blocks signals risks.
 * Threads that block SIGSYS or SIGTRAP already are mended first, with
 * ptrace, which the agent's filters cannot do.
 */
void
linux_proc_guard(linux_proc_t *p)
{
	linux_agent_block_t *b = p->lp_block;
	int32_t ans = 0;

	if (p->lp_state == LINUX_PROC_GONE ||
	    __atomic_exchange_n(&b->lab_guard, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	linux_proc_unblock_traps(p->lp_pid, p->lp_created);
	if (linux_agent_notify(p, LINUX_AGENT_SYSCALL) != 0)
		return;
	for (int ms = 0; ms < PROC_GUARD_WAIT_MS; ms++) {
		struct timespec ts = {0, 1000000};

		if ((ans = __atomic_load_n(&b->lab_counts->lac_guarded, __ATOMIC_ACQUIRE)) != 0)
			break;
		nanosleep(&ts, NULL);
	}
	/* A system without seccomp filters (a kernel built without them;
	 * qemu-user, which refuses them to its guests) never had the guard:
	 * said once in port/linux/README.md rather than for every process. */
	if (ans > 0 || ans == -EINVAL || ans == -ENOSYS)
		return;
	if (ans == 0)
		fprintf(stderr,
			"dtrace: pid %d: its agent did not say whether SIGTRAP is kept unblocked: "
			"a thread that blocks it may die at a probe\n",
			(int)p->lp_pid);
	else
		fprintf(stderr,
			"dtrace: pid %d: SIGTRAP cannot be kept unblocked (%s): "
			"a thread that blocks it dies at a probe\n",
			(int)p->lp_pid,
			ans == -EPERM   ? "address-space randomization is off"
			: ans == -EBUSY ? "a thread blocks SIGSYS"
			                : strerror(-ans));
}

int
dtrace_linux_proc_go(pid_t pid)
{
	linux_proc_t *p = linux_proc_lookup(pid);
	linux_agent_msg_t m;

	if (p == NULL)
		return ESRCH;
	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_GO;
	return linux_agent_send(p->lp_sock, &m, NULL, 0);
}

int
dtrace_linux_proc_dropped(pid_t pid)
{
	linux_proc_t *p = linux_proc_lookup(pid);

	if (p == NULL || p->lp_state != LINUX_PROC_GONE || p->lp_dropped || !p->lp_execd)
		return 0;
	p->lp_dropped = true;
	return 1;
}

uint64_t
dtrace_linux_proc_refused(pid_t pid)
{
	linux_proc_t *p = linux_proc_lookup(pid);
	uint64_t n, d;

	if (p == NULL || p->lp_block == NULL || p->lp_block->lab_counts == NULL)
		return 0;
	/* the agent writes it: a count that went back is believed from
	 * here on, never reported as a huge difference */
	n = __atomic_load_n(&p->lp_block->lab_counts->lac_refused, __ATOMIC_RELAXED);
	d = n > p->lp_refused ? n - p->lp_refused : 0;
	p->lp_refused = n;
	return d;
}

int
linux_proc_foreach(int (*fn)(linux_proc_t *, void *), void *arg)
{
	linux_proc_t *p;
	int rv = 0;

	pthread_mutex_lock(&proc_lock);
	for (p = procs; p != NULL && rv == 0; p = p->lp_next)
		rv = fn(p, arg);
	pthread_mutex_unlock(&proc_lock);
	return rv;
}

/*
 * Host teardown: every probe has been disabled by now (the states are
 * closed), so the texts are clean.  Tell each agent tracing is over, close
 * the connections (which ends the control threads), and unregister the
 * providers.  Returns EBUSY if a provider refuses.
 */
int
linux_proc_release_all(void)
{
	linux_proc_t *p, *next;
	linux_agent_msg_t m;
	int err = 0;

	pthread_mutex_lock(&proc_lock);
	for (p = procs; p != NULL; p = p->lp_next) {
		linux_pid_unwatch_modules(p);
		memset(&m, 0, sizeof(m));
		m.am_type = LINUX_AGENT_DETACH;
		p->lp_block->lab_detached = 1;
		(void)linux_agent_send(p->lp_sock, &m, NULL, 0);
		shutdown(p->lp_sock, SHUT_RDWR);
	}
	pthread_mutex_unlock(&proc_lock);
	for (p = procs; p != NULL; p = p->lp_next) {
		if (p->lp_thread_started)
			pthread_join(p->lp_thread, NULL);
		p->lp_thread_started = false;
	}
	pthread_mutex_lock(&proc_lock);
	for (p = procs; p != NULL; p = next) {
		next = p->lp_next;
		if (linux_usdt_release(p) != 0 || linux_pid_unregister(p) != 0) {
			err = DTRACE_EBUSY;
			procs = p;
			break;
		}
		close(p->lp_sock);
		close(p->lp_memfd);
		dtrace_port_free_probe(p->lp_block->lab_counts, sizeof(linux_agent_counts_t));
		dtrace_port_free(p->lp_block, sizeof(*p->lp_block));
		free(p);
		procs = next;
	}
	pthread_mutex_unlock(&proc_lock);
	return err;
}
