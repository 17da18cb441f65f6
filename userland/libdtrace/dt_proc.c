/*
 * dt_proc.c: the processes a consumer traces (-c runs one, -p names one;
 * both may repeat).  Where the backend needs an agent in the process (the
 * Linux host), a created process execs with the agent preloaded and is
 * held in the agent until dtrace_proc_continue(), so nothing main() does
 * escapes tracing and its libraries are there to be probed when programs
 * are compiled; a grabbed process has the agent injected.  The last pid
 * becomes $target for programs compiled afterwards.  dtrace_proc_poll()
 * says when a process has gone, in the words DTrace uses ("pid 123 has
 * exited").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_impl.h"

extern char **environ;

/* Is there an executable the child's execvp() will find?  Its path goes
 * in found. */
static int
dt_proc_findexec(const char *file, char *found, size_t flen)
{
	const char *path, *p, *q;
	char buf[4096];

	if (strchr(file, '/') != NULL) {
		(void)snprintf(found, flen, "%s", file);
		return access(file, X_OK) == 0 ? 0 : errno;
	}
	if ((path = getenv("PATH")) == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = q + 1) {
		size_t len;

		q = strchr(p, ':');
		len = q != NULL ? (size_t)(q - p) : strlen(p);
		if ((size_t)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p, len ? "/" : "",
		                     file) < sizeof(buf) &&
		    access(buf, X_OK) == 0) {
			(void)snprintf(found, flen, "%s", buf);
			return 0;
		}
		if (q == NULL)
			return ENOENT;
	}
}

/* Wakes dtrace_sleep() when a created process ends (see below). */
static void
dt_proc_sigchld(int sig)
{
	(void)sig;
}

/* The -c environment plus the agent's two variables: LD_PRELOAD gains the
 * agent (before what the user preloads, so its constructor runs first). */
static char **
dt_proc_agent_env(dtrace_hdl_t *dtp, const char *lib, int fd)
{
	char **env = dtp->dt_proc_env, **nenv, *pre = NULL;
	size_t n = 0, i, k = 0;

	while (env != NULL && env[n] != NULL)
		n++;
	if ((nenv = calloc(n + 3, sizeof(char *))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (strncmp(env[i], "LD_PRELOAD=", 11) == 0)
			pre = env[i] + 11;
		else if (strncmp(env[i], "DTRACE_AGENT_FD=", 16) != 0)
			nenv[k++] = env[i];
	}
	if (asprintf(&nenv[k++], "LD_PRELOAD=%s%s%s", lib, pre != NULL && *pre ? ":" : "",
	             pre != NULL ? pre : "") < 0 ||
	    asprintf(&nenv[k++], "DTRACE_AGENT_FD=%d", fd) < 0)
		return NULL; /* the child exits; nothing to free there */
	nenv[k] = NULL;
	return nenv;
}

static dt_proc_t *
dt_proc_slot(dtrace_hdl_t *dtp, int pid)
{
	for (int i = 0; i < dtp->dt_nprocs; i++)
		if (dtp->dt_procs[i].dpr_pid == pid)
			return &dtp->dt_procs[i];
	return NULL;
}

static int
dt_proc_add(dtrace_hdl_t *dtp, int pid, int created)
{
	dt_proc_t *dpr;

	if ((dpr = dt_proc_slot(dtp, pid)) == NULL) {
		if (dtp->dt_nprocs == DT_PROC_MAX) {
			(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg),
			               "failed to grab pid %d: more than %d processes", pid,
			               DT_PROC_MAX);
			return dt_set_errno(dtp, EDT_COMPILER);
		}
		dpr = &dtp->dt_procs[dtp->dt_nprocs++];
	}
	dpr->dpr_pid = pid;
	dpr->dpr_created = created;
	dpr->dpr_held = created;
	dpr->dpr_live = 1;
	dtp->dt_target = pid;
	/* its objects now (a created one is held after its libraries are
	 * loaded), so what it records is named even after it exits */
	dt_symtab_prime(dtp, pid);
	return pid;
}

int
dtrace_proc_create(dtrace_hdl_t *dtp, const char *file, char *const argv[])
{
	const dt_backend_t *be = dtp->dt_backend;
	struct sigaction act, oact;
	int report[2], cons = -1, agent = -1, err = 0, afd;
	const char *lib = NULL;
	char why[512], exe[4096];
	pid_t pid;
	ssize_t n;

	/* a command that cannot run fails here, as DTrace's create does */
	if ((err = dt_proc_findexec(file, exe, sizeof(exe))) != 0) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to execute %s: %s", file,
		               strerror(err));
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	/* one the backend cannot trace (no agent can live in it) is refused
	 * before it runs */
	if (be->proc_check != NULL && be->proc_check(exe, why, sizeof(why)) != 0) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to execute %s: %s", file,
		               why);
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	if (be->proc_preload != NULL && (err = be->proc_preload(&lib, &cons, &agent)) != 0) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg),
		               "failed to execute %s: the agent %s: %s", file,
		               lib != NULL ? lib : "library", strerror(err));
		return dt_set_errno(dtp, EDT_COMPILER);
	}

	/*
	 * DTrace's process control thread wakes the consumer's sleep when the
	 * process changes state; here the child's SIGCHLD does, by
	 * interrupting the sleep (unless the caller already handles it).
	 */
	if (sigaction(SIGCHLD, NULL, &oact) == 0 && oact.sa_handler == SIG_DFL) {
		memset(&act, 0, sizeof(act));
		act.sa_handler = dt_proc_sigchld;
		(void)sigemptyset(&act.sa_mask);
		(void)sigaction(SIGCHLD, &act, NULL);
	}
	if (pipe2(report, O_CLOEXEC) != 0) {
		err = errno;
		goto fail_fds;
	}
	if ((pid = fork()) == -1) {
		err = errno;
		(void)close(report[0]), (void)close(report[1]);
		goto fail_fds;
	}
	if (pid == 0) {
		char **env = dtp->dt_proc_env;

		(void)close(report[0]);
		if (lib != NULL) {
			(void)close(cons);
			/* dup: a descriptor the exec keeps */
			if ((afd = dup(agent)) < 0 || (env = dt_proc_agent_env(dtp, lib, afd)) == NULL)
				_exit(127);
		}
		/* the environment -x setenv and unsetenv made (DTrace's dt_proc_env) */
		environ = env;
		(void)execvp(file, argv);
		err = errno;
		(void)write(report[1], &err, sizeof(err));
		_exit(127);
	}
	(void)close(report[1]);
	if (agent >= 0)
		(void)close(agent);
	/* EOF: the exec happened; an errno: it failed */
	while ((n = read(report[0], &err, sizeof(err))) == -1 && errno == EINTR)
		;
	(void)close(report[0]);
	if (n == (ssize_t)sizeof(err)) {
		(void)waitpid(pid, NULL, 0);
		if (cons >= 0)
			(void)close(cons);
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to execute %s: %s", file,
		               strerror(err));
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	if (be->proc_created != NULL && (err = be->proc_created(pid, cons, why, sizeof(why))) != 0) {
		(void)kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to execute %s: %s", file,
		               why);
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	return dt_proc_add(dtp, (int)pid, 1);

fail_fds:
	if (cons >= 0)
		(void)close(cons), (void)close(agent);
	return dt_set_errno(dtp, err);
}

int
dtrace_proc_grab(dtrace_hdl_t *dtp, int pid)
{
	const dt_backend_t *be = dtp->dt_backend;
	char why[512];
	int err;

	if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM)) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to grab pid %d: %s", pid,
		               strerror(ESRCH));
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	if (dt_proc_slot(dtp, pid) != NULL)
		return dt_proc_add(dtp, pid, dt_proc_slot(dtp, pid)->dpr_created);
	if (be->proc_grab != NULL && (err = be->proc_grab(pid, why, sizeof(why))) != 0) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to grab pid %d: %s", pid,
		               why);
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	return dt_proc_add(dtp, pid, 0);
}

int
dtrace_proc_continue(dtrace_hdl_t *dtp, int pid)
{
	const dt_backend_t *be = dtp->dt_backend;
	dt_proc_t *dpr = dt_proc_slot(dtp, pid);
	int err;

	if (dpr == NULL || !dpr->dpr_held)
		return 0;
	dpr->dpr_held = 0;
	if (be->proc_go != NULL && (err = be->proc_go(pid)) != 0)
		return dt_set_errno(dtp, err);
	return 0;
}

static const char *
dt_signame(int sig, char *buf, size_t len)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
		{SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
		{SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
		{SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGCHLD, "SIGCHLD"},
		{SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGSYS, "SIGSYS"},
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].sig == sig)
			return names[i].name;
	}
	(void)snprintf(buf, len, "SIG#%d", sig);
	return buf;
}

/*
 * Has a traced process gone?  Returns 1 and DTrace's notice in msg for the
 * first one that has since the last call, 0 while all run (or there are
 * none).
 */
int
dtrace_proc_poll(dtrace_hdl_t *dtp, char *msg, size_t len)
{
	char sbuf[32];
	int i, pid, status;

	for (i = 0; i < dtp->dt_nprocs; i++) {
		dt_proc_t *dpr = &dtp->dt_procs[i];

		if (!dpr->dpr_live)
			continue;
		pid = dpr->dpr_pid;
		/* exec replaced the image its probes were in: say so, and go on
		 * until the process ends (the new image runs untraced) */
		if (dtp->dt_backend->proc_dropped != NULL && dtp->dt_backend->proc_dropped(pid)) {
			(void)snprintf(msg, len, "pid %d has exec'd: its probes are gone\n", pid);
			return 1;
		}
		if (dpr->dpr_created) {
			if (waitpid(pid, &status, WNOHANG) != pid)
				continue;
			if (WIFSIGNALED(status))
				(void)snprintf(msg, len, "pid %d terminated by %s\n", pid,
				               dt_signame(WTERMSIG(status), sbuf, sizeof(sbuf)));
			else if (WEXITSTATUS(status) != 0)
				(void)snprintf(msg, len, "pid %d exited with status %d\n", pid,
				               WEXITSTATUS(status));
			else
				(void)snprintf(msg, len, "pid %d has exited\n", pid);
		} else {
			if (kill(pid, 0) == 0 || errno == EPERM)
				continue;
			(void)snprintf(msg, len, "pid %d has exited\n", pid);
		}
		dpr->dpr_live = 0;
		return 1;
	}
	return 0;
}

/* How many traced processes have not been reported gone. */
int
dtrace_proc_live(dtrace_hdl_t *dtp)
{
	int i, n = 0;

	for (i = 0; i < dtp->dt_nprocs; i++)
		n += dtp->dt_procs[i].dpr_live;
	return n;
}

/*
 * The consumer is closing.  As DTrace releases a process it created
 * (PRELEASE_KILL), a -c command still running is killed: never continued,
 * it must not run untraced, and continued, it is DTrace's to end.  Grabbed
 * processes are left running.
 */
void
dt_proc_destroy(dtrace_hdl_t *dtp)
{
	for (int i = 0; i < dtp->dt_nprocs; i++) {
		dt_proc_t *dpr = &dtp->dt_procs[i];

		if (dpr->dpr_created && dpr->dpr_live) {
			(void)kill(dpr->dpr_pid, SIGKILL);
			(void)waitpid(dpr->dpr_pid, NULL, 0);
			dpr->dpr_live = 0;
		}
	}
}
