/*
 * port/linux/inject.c: bringing the agent into a running process
 * (`dtrace -p`).
 *
 * With ptrace, as a debugger would: seize the process's main thread,
 * interrupt it, save every register (general and extended state), make it
 * call dlopen() on the agent and then dtrace_agent_attach() with the name
 * of an abstract socket this side listens on, put every register back and
 * detach.  The thread is stopped only for those two calls; the process's
 * other threads run throughout.  A call returns to address 0, whose fault
 * stops the thread again under ptrace: that fault is never delivered.
 *
 * The thread is never made to call dlopen() where that call could meet
 * the thread's own unfinished work: in the dynamic linker's code (a
 * process just exec'd is still relocating and its C library may not be
 * there or set up yet; a thread loading a library holds the loader's
 * recursive lock, which our dlopen() would take again and enter half-way),
 * or in the C library's code unless blocked in a system call its
 * allocator does not make (malloc's locks are not recursive and its
 * per-thread cache has no lock at all).  Such a thread is let run 2 ms and
 * interrupted again, until it is somewhere else: in the program's code, or
 * waiting in read, poll, nanosleep and the like.  A signal that arrives
 * while it is stopped is delivered when it is let go.
 *
 * A thread interrupted inside a system call is left to restart it as the
 * kernel would have: the calls run with orig_rax = -1 (no restart), and
 * the saved registers, put back before detaching, carry the restart.
 *
 * Who may be traced is the kernel's decision: the process must be one the
 * user could attach a debugger to (same user, or CAP_SYS_PTRACE; Yama's
 * ptrace_scope; not non-dumpable).  When PTRACE_SEIZE refuses, the error
 * says which of those to look at; nothing is tried behind its back.
 *
 * The ISA half (registers, the call frame) is x86_64 here; other ISAs run
 * under qemu-user, which has no ptrace, and say so.  Not probe context.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "linux_impl.h"

#define INJECT_TIMEOUT_MS 10000
/* How long a process may stay in its dynamic linker before a grab gives
 * up: tries, 2 ms of running apart. */
#define INJECT_SETTLE_TRIES 1000

/* ---- Symbols of the target ------------------------------------------- */

/* The address of `sym` in the first loaded object whose file name is
 * `base`, from /proc/<pid>/maps and the file's symbol tables. */
static int
inject_symbol_cb(const char *name, uintptr_t addr, size_t size, void *arg)
{
	void **a = arg;

	(void)size;
	if (strcmp(name, (const char *)a[0]) == 0) {
		*(uintptr_t *)a[1] = addr;
		return 1;
	}
	return 0;
}

typedef struct inject_find {
	const char *if_base; /* module name wanted, or NULL: any */
	const char *if_sym;
	uintptr_t if_addr;
} inject_find_t;

static int
inject_module_cb(const dtrace_port_module_t *mod, void *arg)
{
	inject_find_t *f = arg;
	void *a[2] = {(void *)f->if_sym, &f->if_addr};

	if (f->if_base != NULL && strcmp(mod->dpm_name, f->if_base) != 0)
		return 0;
	if (f->if_base == NULL && strncmp(mod->dpm_name, "libc.so", 7) != 0)
		return 0;
	return dtrace_port_symbol_iter(mod, inject_symbol_cb, a) == 1 ? 1 : 0;
}

static uintptr_t
inject_lookup(linux_proc_t *p, const char *module, const char *sym)
{
	inject_find_t f = {module, sym, 0};

	(void)dtrace_port_module_iter(p, inject_module_cb, &f);
	return f.if_addr;
}

/* ---- ptrace ------------------------------------------------------------ */

typedef struct inject_regs {
	struct user_regs_struct ir_gp;
	uint8_t ir_xstate[16384];
	size_t ir_xlen;
} inject_regs_t;

static int
inject_wait(pid_t pid, int *status)
{
	struct timespec t0, t1;
	pid_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		r = waitpid(pid, status, __WALL | WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return errno;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >
		    INJECT_TIMEOUT_MS)
			return ETIMEDOUT;
		usleep(1000);
	}
}

static int
inject_getregs(pid_t pid, inject_regs_t *r)
{
	struct iovec iov = {r->ir_xstate, sizeof(r->ir_xstate)};

	if (ptrace(PTRACE_GETREGS, pid, NULL, &r->ir_gp) != 0)
		return errno;
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_XSTATE, &iov) == 0)
		r->ir_xlen = iov.iov_len;
	else
		r->ir_xlen = 0;
	return 0;
}

static int
inject_setregs(pid_t pid, inject_regs_t *r)
{
	struct iovec iov = {r->ir_xstate, r->ir_xlen};

	if (ptrace(PTRACE_SETREGS, pid, NULL, &r->ir_gp) != 0)
		return errno;
	if (r->ir_xlen != 0 && ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_XSTATE, &iov) != 0)
		return errno;
	return 0;
}

/*
 * Call fn(a0, a1) in the stopped thread with `data` (a string) copied
 * below its stack; the function returns to address 0 and the fault stops
 * the thread.  *rv gets its return value.  Signals that arrive meanwhile
 * are delivered to the thread as they would have been.
 */
static int
inject_call(linux_proc_t *p, const struct user_regs_struct *saved, uintptr_t fn, const char *data,
	    uint64_t a1, uint64_t *rv)
{
	struct user_regs_struct r = *saved;
	size_t dlen = strlen(data) + 1;
	uintptr_t sp, str;
	uint64_t zero = 0;
	int status, err, sig;

	/* well below the red zone; 16-byte aligned before the call pushes */
	sp = (uintptr_t)saved->rsp - 4096;
	str = (sp - dlen) & ~(uintptr_t)15;
	sp = (str - 64) & ~(uintptr_t)15;
	if ((err = linux_proc_mem_write(p, str, data, dlen)) != 0)
		return err;
	sp -= sizeof(uint64_t); /* the return address, as a call pushes it */
	if ((err = linux_proc_mem_write(p, sp, &zero, sizeof(zero))) != 0)
		return err;
	r.rip = fn;
	r.rsp = sp;
	r.rdi = str;
	r.rsi = a1;
	r.rax = 0;
	r.orig_rax = (unsigned long long)-1; /* not in a system call: no restart */
	if (ptrace(PTRACE_SETREGS, p->lp_pid, NULL, &r) != 0)
		return errno;
	sig = 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, p->lp_pid, NULL, (void *)(uintptr_t)sig) != 0)
			return errno;
		if ((err = inject_wait(p->lp_pid, &status)) != 0)
			return err;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return ESRCH;
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		if (sig == SIGSEGV) {
			if (ptrace(PTRACE_GETREGS, p->lp_pid, NULL, &r) != 0)
				return errno;
			if (r.rip == 0)
				break; /* our return */
		}
		/* a group stop of a seized thread reports the stop signal as an
		 * event; anything else is the program's and is passed on */
		if ((status >> 16) == PTRACE_EVENT_STOP)
			sig = 0;
	}
	*rv = r.rax;
	return 0;
}

static int
inject_listen(pid_t pid, char *name, size_t len, int *lsock)
{
	struct sockaddr_un sa;
	size_t n;
	int s;

	n = (size_t)snprintf(name, len, "dtrace-agent-%d-%d-%ld", (int)getpid(), (int)pid,
			     (long)time(NULL));
	if ((s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0)
		return errno;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path + 1, name, n);
	if (bind(s, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) != 0 ||
	    listen(s, 1) != 0) {
		int err = errno;

		close(s);
		return err;
	}
	*lsock = s;
	return 0;
}

/* Wait for the agent of `pid` (checked by its credentials) to connect. */
static int
inject_accept(int lsock, pid_t pid, int *sock)
{
	struct pollfd pfd = {lsock, POLLIN, 0};
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	int s;

	for (;;) {
		if (poll(&pfd, 1, INJECT_TIMEOUT_MS) <= 0)
			return ETIMEDOUT;
		if ((s = accept4(lsock, NULL, NULL, SOCK_CLOEXEC)) < 0)
			return errno;
		if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 && cred.pid == pid) {
			*sock = s;
			return 0;
		}
		close(s); /* not the process we asked */
	}
}

static const char *
inject_why(int err)
{
	static char buf[256];
	FILE *f;
	int scope = -1;

	if (err != EPERM)
		return strerror(err);
	if ((f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re")) != NULL) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	if (scope >= 1)
		snprintf(buf, sizeof(buf),
			 "permission denied (kernel.yama.ptrace_scope is %d: only %s may trace it)",
			 scope,
			 scope == 1 ? "its ancestors or CAP_SYS_PTRACE"
			 : scope == 2 ? "CAP_SYS_PTRACE"
				      : "no one");
	else
		snprintf(buf, sizeof(buf),
			 "permission denied (another user's process, a non-dumpable one, or already "
			 "traced)");
	return buf;
}

typedef struct inject_thread_arg {
	int ita_lsock;
	pid_t ita_pid;
	int ita_err;
	char ita_why[256];
} inject_thread_arg_t;

static void *
inject_adopt(void *arg)
{
	inject_thread_arg_t *ita = arg;
	int sock = -1;

	if ((ita->ita_err = inject_accept(ita->ita_lsock, ita->ita_pid, &sock)) != 0) {
		snprintf(ita->ita_why, sizeof(ita->ita_why), "the agent did not connect: %s",
			 strerror(ita->ita_err));
		return NULL;
	}
	ita->ita_err =
		linux_proc_adopt(ita->ita_pid, sock, false, ita->ita_why, sizeof(ita->ita_why));
	return NULL;
}

/* ---- Out of the dynamic linker ---------------------------------------- */

/* The load address of the program's interpreter (AT_BASE), 0 if none. */
static uintptr_t
inject_interp_base(pid_t pid)
{
	char path[64];
	uint64_t av[2];
	uintptr_t base = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (fread(av, sizeof(av), 1, f) == 1 && av[0] != AT_NULL)
		if (av[0] == AT_BASE)
			base = (uintptr_t)av[1];
	fclose(f);
	return base;
}

/* Where a stopped thread's pc is, for inject_stop_settled. */
typedef enum { PC_ELSEWHERE, PC_LOADER, PC_LIBC } inject_pc_t;

/* Whether `path` names the C library (libc.so.6, libc-2.x.so). */
static bool
inject_is_libc(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b != NULL ? b + 1 : path;
	return strncmp(b, "libc.so", 7) == 0 ||
	       (strncmp(b, "libc-", 5) == 0 && strstr(b, ".so") != NULL);
}

/* Whether `pc` is in the executable text of the file mapped at `base`
 * (the dynamic linker: same device and inode in /proc/<pid>/maps) or of
 * the C library. */
static inject_pc_t
inject_pc_where(pid_t pid, uintptr_t base, uintptr_t pc)
{
	char path[64], line[512], perms[8], file[256];
	unsigned long lo, hi, ino, ld_ino = 0;
	unsigned dmaj, dmin, ld_maj = 0, ld_min = 0;
	bool have_ld = false;
	inject_pc_t where = PC_ELSEWHERE;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	/* first the file at `base`, then where pc is */
	for (int pass = 0; pass < 2; pass++) {
		if ((f = fopen(path, "re")) == NULL)
			return PC_ELSEWHERE;
		while (fgets(line, sizeof(line), f) != NULL) {
			file[0] = '\0';
			if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %255s", &lo, &hi, perms, &dmaj,
				   &dmin, &ino, file) < 6 || ino == 0)
				continue;
			if (pass == 0) {
				if (base != 0 && base >= lo && base < hi) {
					ld_ino = ino;
					ld_maj = dmaj;
					ld_min = dmin;
					have_ld = true;
					break;
				}
				continue;
			}
			if (perms[2] != 'x' || pc < lo || pc >= hi)
				continue;
			if (have_ld && ino == ld_ino && dmaj == ld_maj && dmin == ld_min)
				where = PC_LOADER;
			else if (inject_is_libc(file))
				where = PC_LIBC;
			break;
		}
		fclose(f);
	}
	return where;
}

/* System calls the C library's allocator makes, perhaps holding its
 * locks or in the middle of its per-thread cache. */
static bool
inject_syscall_allocates(long nr)
{
	switch (nr) {
	case SYS_mmap:
	case SYS_munmap:
	case SYS_mremap:
	case SYS_mprotect:
	case SYS_madvise:
	case SYS_brk:
	case SYS_getrandom:
		return true;
	default:
		return false;
	}
}

/*
 * Stop the thread where it may call dlopen() (see the top): not in the
 * dynamic linker, and not in the C library unless blocked in a system
 * call its allocator does not make.  *pending gets a signal that came
 * while it was stopped, to deliver when it goes.  ETIMEDOUT when it was
 * never found so.
 */
static int
inject_stop_settled(pid_t pid, inject_regs_t *regs, int *pending)
{
	uintptr_t base;
	int status, err;
	long nr;
	inject_pc_t where;

	for (int tries = 0;; tries++) {
		if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) != 0)
			return errno;
		if ((err = inject_wait(pid, &status)) != 0)
			return err;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return ESRCH;
		/* a signal-delivery stop rather than our interrupt's event
		 * stop: the signal is the thread's, kept for it */
		if (WIFSTOPPED(status) && (status >> 16) == 0)
			*pending = WSTOPSIG(status);
		if ((err = inject_getregs(pid, regs)) != 0)
			return err;
		/* orig_rax: the call the thread was in, -1 when in its code */
		nr = (long)regs->ir_gp.orig_rax;
		/* (read again each time: the process may have exec'd since) */
		base = inject_interp_base(pid);
		where = inject_pc_where(pid, base, (uintptr_t)regs->ir_gp.rip);
		if (where != PC_LOADER &&
		    (nr >= 0 ? !inject_syscall_allocates(nr) : where != PC_LIBC))
			return 0;
		if (tries == INJECT_SETTLE_TRIES)
			return ETIMEDOUT;
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(uintptr_t)*pending) != 0)
			return errno;
		*pending = 0;
		usleep(2000);
	}
}

int
dtrace_linux_proc_grab(pid_t pid, char *errbuf, size_t errlen)
{
	char sockname[96], path[PATH_MAX];
	const char *agent = dtrace_linux_agent_path();
	inject_thread_arg_t ita;
	linux_proc_t tmp;
	inject_regs_t saved;
	pthread_t th;
	uintptr_t dlopen_at, attach_at;
	uint64_t rv = 0;
	int err, lsock = -1, pending = 0;
	bool seized = false;

	if ((err = dtrace_linux_host_init()) != 0) {
		snprintf(errbuf, errlen, "cannot start the host: %s", strerror(err));
		return err;
	}
	if (linux_proc_lookup(pid) != NULL)
		return 0;
	if (realpath(agent, path) == NULL) {
		err = errno;
		snprintf(errbuf, errlen, "the agent %s: %s", agent, strerror(err));
		return err;
	}
	memset(&tmp, 0, sizeof(tmp));
	tmp.lp_pid = pid;
	tmp.lp_state = LINUX_PROC_ATTACHING;
	snprintf(sockname, sizeof(sockname), "/proc/%d/mem", (int)pid);

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0) {
		err = errno;
		snprintf(errbuf, errlen, "%s", inject_why(err));
		return err;
	}
	seized = true;
	if ((tmp.lp_memfd = open(sockname, O_RDWR | O_CLOEXEC)) < 0) {
		err = errno;
		snprintf(errbuf, errlen, "%s", inject_why(err));
		goto out;
	}
	if ((err = inject_stop_settled(pid, &saved, &pending)) != 0) {
		if (err == ETIMEDOUT)
			snprintf(errbuf, errlen, "it stays in its dynamic linker or its C "
						 "library's allocator: try again");
		else
			snprintf(errbuf, errlen, "cannot stop it: %s", strerror(err));
		goto out;
	}
	/* (looked up with the thread stopped out of the loader: a process just
	 * started may only now have its C library) */
	dlopen_at = inject_lookup(&tmp, NULL, "dlopen");
	if (dlopen_at == 0) {
		err = ENOENT;
		snprintf(errbuf, errlen, "no dlopen() in its C library (a static program?)");
		goto out;
	}
	if ((err = inject_listen(pid, sockname, sizeof(sockname), &lsock)) != 0) {
		snprintf(errbuf, errlen, "cannot listen for the agent: %s", strerror(err));
		goto out;
	}
	if ((err = inject_call(&tmp, &saved.ir_gp, dlopen_at, path, RTLD_NOW, &rv)) != 0 ||
	    rv == 0) {
		snprintf(errbuf, errlen, "it could not load the agent %s%s%s", path,
			 err != 0 ? ": " : "", err != 0 ? strerror(err) : "");
		err = err != 0 ? err : ENOEXEC;
		(void)inject_setregs(pid, &saved);
		goto out;
	}
	attach_at = inject_lookup(&tmp, LINUX_AGENT_NAME, "dtrace_agent_attach");
	if (attach_at == 0) {
		err = ENOENT;
		snprintf(errbuf, errlen, "the agent has no dtrace_agent_attach");
		(void)inject_setregs(pid, &saved);
		goto out;
	}
	/*
	 * dtrace_agent_attach() connects and waits for SETUP while the thread
	 * runs our call, so the other side of the handshake runs on its own
	 * thread here (accept, then linux_proc_adopt) while this one waits
	 * for the call to return.
	 */
	ita.ita_lsock = lsock;
	ita.ita_pid = pid;
	ita.ita_err = 0;
	if ((err = pthread_create(&th, NULL, inject_adopt, &ita)) != 0) {
		snprintf(errbuf, errlen, "cannot start a thread: %s", strerror(err));
		(void)inject_setregs(pid, &saved);
		goto out;
	}
	err = inject_call(&tmp, &saved.ir_gp, attach_at, sockname, 0, &rv);
	if (err != 0 || rv != 0)
		shutdown(lsock, SHUT_RDWR); /* the adopting thread gives up */
	pthread_join(th, NULL);
	if (inject_setregs(pid, &saved) != 0 && err == 0)
		err = ESRCH;
	if (err != 0 || rv != 0 || ita.ita_err != 0) {
		if (ita.ita_err != 0 && ita.ita_why[0] != '\0')
			snprintf(errbuf, errlen, "%s", ita.ita_why);
		else
			snprintf(errbuf, errlen, "the agent could not attach: %s",
				 strerror(err != 0 ? err : rv != 0 ? (int)rv : ita.ita_err));
		err = err != 0 ? err : rv != 0 ? (int)rv : ita.ita_err;
	}
out:
	if (seized)
		(void)ptrace(PTRACE_DETACH, pid, NULL, (void *)(uintptr_t)pending);
	if (tmp.lp_memfd > 0)
		close(tmp.lp_memfd);
	if (lsock >= 0)
		close(lsock);
	return err;
}

/*
 * The agent cannot keep SIGTRAP unblocked while a thread blocks SIGSYS
 * (its filters would make that thread's next trapped call fatal), and a
 * thread that already blocks SIGTRAP dies at its first breakpoint.  Take
 * both out of such threads' masks as a debugger can: each is stopped for
 * the moment it takes (PTRACE_SEIZE, INTERRUPT, SETSIGMASK, DETACH).  The
 * main thread of a process we created is left alone: dt_proc's waitpid
 * on it could take its ptrace stop (it is held in the agent's constructor
 * until GO anyway).  Best effort: what cannot be done, the agent refuses.
 */
void
linux_proc_unblock_traps(pid_t pid, bool skip_main)
{
	uint64_t keep = (1ULL << (SIGSYS - 1)) | (1ULL << (SIGTRAP - 1));
	char path[64], line[256];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);
		unsigned long long blk = 0;
		uint64_t mask;
		int status;
		FILE *f;

		if (tid <= 0 || (skip_main && tid == pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "SigBlk: %llx", &blk) == 1)
				break;
		fclose(f);
		if ((blk & keep) == 0 || ptrace(PTRACE_SEIZE, tid, NULL, NULL) != 0)
			continue;
		if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) == 0 && inject_wait(tid, &status) == 0 &&
		    ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(mask), &mask) == 0 &&
		    (mask & keep) != 0) {
			mask &= ~keep;
			(void)ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof(mask), &mask);
		}
		(void)ptrace(PTRACE_DETACH, tid, NULL, NULL);
	}
	closedir(d);
}
