/*
 * dt_proc.c: the processes a consumer traces (-c runs one, -p names one).
 * A created process is held before exec() until dtrace_proc_continue(), so
 * nothing it does escapes tracing; its pid becomes $target for programs
 * compiled afterwards.  dtrace_proc_poll() says when a process has gone,
 * in the words DTrace uses ("pid 123 has exited").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_impl.h"

extern char **environ;

/* Is there an executable the child's execvp() will find? */
static int
dt_proc_findexec(const char *file)
{
	const char *path, *p, *q;
	char buf[4096];

	if (strchr(file, '/') != NULL)
		return access(file, X_OK) == 0 ? 0 : errno;
	if ((path = getenv("PATH")) == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = q + 1) {
		size_t len;

		q = strchr(p, ':');
		len = q != NULL ? (size_t)(q - p) : strlen(p);
		if ((size_t)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p, len ? "/" : "",
		                     file) < sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 0;
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

int
dtrace_proc_create(dtrace_hdl_t *dtp, const char *file, char *const argv[])
{
	struct sigaction act, oact;

	int hold[2], report[2], err = 0;
	pid_t pid;
	ssize_t n;

	/* a command that cannot run fails here, as DTrace's create does */
	if ((err = dt_proc_findexec(file)) != 0) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to execute %s: %s", file,
		               strerror(err));
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
	if (pipe(hold) != 0 || pipe(report) != 0)
		return dt_set_errno(dtp, errno);
	(void)fcntl(report[1], F_SETFD, FD_CLOEXEC);

	if ((pid = fork()) == -1) {
		err = errno;
		(void)close(hold[0]), (void)close(hold[1]);
		(void)close(report[0]), (void)close(report[1]);
		return dt_set_errno(dtp, err);
	}
	if (pid == 0) {
		char c;

		(void)close(hold[1]);
		(void)close(report[0]);
		/* wait until the consumer is tracing */
		while (read(hold[0], &c, 1) == -1 && errno == EINTR)
			;
		(void)close(hold[0]);
		/* the environment -x setenv and unsetenv made (DTrace's dt_proc_env) */
		environ = dtp->dt_proc_env;
		(void)execvp(file, argv);
		err = errno;
		(void)write(report[1], &err, sizeof(err));
		_exit(127);
	}
	(void)close(hold[0]);
	(void)close(report[1]);
	dtp->dt_proc_hold = hold[1];
	dtp->dt_proc_report = report[0];
	dtp->dt_proc_pid = pid;
	dtp->dt_proc_created = 1;
	dtp->dt_target = pid;
	(void)n;
	return (int)pid;
}

int
dtrace_proc_grab(dtrace_hdl_t *dtp, int pid)
{
	if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM)) {
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), "failed to grab pid %d: %s", pid,
		               strerror(ESRCH));
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	dtp->dt_proc_pid = pid;
	dtp->dt_proc_created = 0;
	dtp->dt_target = pid;
	return pid;
}

int
dtrace_proc_continue(dtrace_hdl_t *dtp, int pid)
{
	int err = 0;
	ssize_t n;

	if (pid != dtp->dt_proc_pid || !dtp->dt_proc_created || dtp->dt_proc_hold < 0)
		return 0;
	/* closing the pipe releases the child into exec() */
	(void)close(dtp->dt_proc_hold);
	dtp->dt_proc_hold = -1;
	while ((n = read(dtp->dt_proc_report, &err, sizeof(err))) == -1 && errno == EINTR)
		;
	(void)close(dtp->dt_proc_report);
	dtp->dt_proc_report = -1;
	if (n == (ssize_t)sizeof(err)) {
		/* exec() failed: report it as DTrace reports a failed create */
		(void)waitpid(pid, NULL, 0);
		dtp->dt_proc_pid = 0;
		return dt_set_errno(dtp, err);
	}
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
 * Has the traced process gone?  Returns 1 and DTrace's notice in msg when
 * it has, 0 while it runs (or when there is none).
 */
int
dtrace_proc_poll(dtrace_hdl_t *dtp, char *msg, size_t len)
{
	int pid = dtp->dt_proc_pid, status;
	char sbuf[32];

	if (pid <= 0)
		return 0;
	if (dtp->dt_proc_created) {
		if (waitpid(pid, &status, WNOHANG) != pid)
			return 0;
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
			return 0;
		(void)snprintf(msg, len, "pid %d has exited\n", pid);
	}
	dtp->dt_proc_pid = 0;
	return 1;
}

void
dt_proc_destroy(dtrace_hdl_t *dtp)
{
	if (dtp->dt_proc_hold >= 0) {
		/* never continued: take it down rather than run it untraced */
		if (dtp->dt_proc_pid > 0 && dtp->dt_proc_created) {
			(void)kill(dtp->dt_proc_pid, SIGKILL);
			(void)close(dtp->dt_proc_hold);
			(void)waitpid(dtp->dt_proc_pid, NULL, 0);
		} else {
			(void)close(dtp->dt_proc_hold);
		}
		dtp->dt_proc_hold = -1;
	}
	if (dtp->dt_proc_report >= 0) {
		(void)close(dtp->dt_proc_report);
		dtp->dt_proc_report = -1;
	}
}
