/*
 * syscallprog MODE: system calls for the syscall provider's tests.
 *   args     calls with known arguments, results and errors
 *   signals  signal masks and handlers as a program uses them, checked
 *   procs    a forked child, threads and an exec'd image, each making calls
 *   spawn    three children by posix_spawn (a vfork that runs on this
 *            process's memory until it execs)
 *   loop F   for -p tests: write "pid" to F, then every millisecond make
 *            a few calls and check their results, until SIGTERM; exit 0 if
 *            every call did what it should
 * Every mode prints what it checked; a failure says what went wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1, got_usr2, stop;

static int
mode_args(void)
{
	long r;
	int fd;

	r = syscall(SYS_openat, AT_FDCWD, "/nonexistent/dtrace", O_RDONLY, 0);
	printf("openat: %ld errno %d\n", r, errno);
	fflush(stdout);
	r = syscall(SYS_write, 1, "hello, syscall\n", 15);
	if ((fd = open("/proc/self/exe", O_RDONLY)) < 0)
		return 1;
	/* six arguments: the last (the offset) is arg5 */
	r = syscall(SYS_mmap, 0, 8192, PROT_READ, MAP_PRIVATE, fd, 4096);
	printf("mmap: %s\n", r > 0 ? "mapped" : "failed");
	close(fd);
	r = syscall(SYS_getppid);
	printf("getppid: %s\n", r == getppid() ? "same" : "differs");
	return 0;
}

static void
on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void
on_usr2(int sig)
{
	(void)sig;
	/* a call from a handler whose mask blocks everything it can */
	if (write(STDOUT_FILENO, "", 0) == 0)
		got_usr2++;
}

static void *
blocked_thread(void *arg)
{
	sigset_t all;
	int fd;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* calls with every signal it may block blocked */
	fd = open("/dev/null", O_WRONLY);
	return (void *)(long)(fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0);
}

static int
mode_signals(void)
{
	struct sigaction sa;
	sigset_t set, old, pending;
	pthread_t t;
	void *ok;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigpending(&pending);
	printf("blocked SIGUSR1: %s, handled %d times\n",
	       sigismember(&pending, SIGUSR1) ? "pending" : "not pending", (int)got_usr1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("unblocked SIGUSR1: handled %d times\n", (int)got_usr1);
	sigprocmask(SIG_BLOCK, NULL, &set);
	printf("SIGUSR1 %s after SIG_SETMASK\n",
	       sigismember(&set, SIGUSR1) ? "blocked" : "unblocked");

	sa.sa_handler = on_usr2;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
	printf("handler with a full mask made its call: %d\n", (int)got_usr2);

	pthread_create(&t, NULL, blocked_thread, NULL);
	pthread_join(t, &ok);
	printf("thread with every signal blocked made its calls: %s\n", ok ? "yes" : "no");
	return 0;
}

static void *
thread_calls(void *arg)
{
	(void)arg;
	return (void *)(long)(syscall(SYS_getppid) == getppid());
}

static int
mode_procs(void)
{
	pthread_t t[4];
	int status, good = 0;
	pid_t child;
	void *ok;

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, thread_calls, NULL);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &ok);
		good += ok != NULL;
	}
	printf("threads: %d of 4 made their calls\n", good);
	fflush(stdout);
	if ((child = fork()) == 0) {
		int fd = open("/dev/null", O_WRONLY);

		_exit(fd >= 0 && write(fd, "y", 1) == 1 ? 0 : 1);
	}
	waitpid(child, &status, 0);
	printf("forked child: %s\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed");
	fflush(stdout);
	if ((child = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", "ls / >/dev/null && echo exec child: ok",
		      (char *)NULL);
		_exit(127);
	}
	waitpid(child, &status, 0);
	printf("exec'd child: status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	fflush(stdout);
	/* and this process itself becomes another program */
	execl("/bin/sh", "sh", "-c", "cat /proc/self/status >/dev/null && echo exec: ok",
	      (char *)NULL);
	return 127;
}

extern char **environ;

static int
mode_spawn(void)
{
	char *argv[] = {"true", NULL};
	int ok = 0, status;
	pid_t child;

	for (int i = 0; i < 3; i++)
		if (posix_spawn(&child, "/bin/true", NULL, NULL, argv, environ) == 0 &&
		    waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
	printf("spawned children that exited 0: %d of 3\n", ok);
	return 0;
}

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int
mode_loop(const char *file)
{
	struct timespec ms = {0, 1000000};
	long bad = 0, rounds = 0;
	FILE *f = fopen(file, "w");
	int fd;

	if (f == NULL)
		return 2;
	signal(SIGTERM, on_term);
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	while (!stop) {
		if ((fd = open("/dev/null", O_WRONLY)) < 0 || write(fd, "z", 1) != 1 ||
		    close(fd) != 0)
			bad++;
		if (syscall(SYS_getppid) != getppid())
			bad++;
		rounds++;
		nanosleep(&ms, NULL);
	}
	return bad == 0 && rounds > 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "args") == 0)
		return mode_args();
	if (argc > 1 && strcmp(argv[1], "signals") == 0)
		return mode_signals();
	if (argc > 1 && strcmp(argv[1], "procs") == 0)
		return mode_procs();
	if (argc > 1 && strcmp(argv[1], "spawn") == 0)
		return mode_spawn();
	if (argc > 2 && strcmp(argv[1], "loop") == 0)
		return mode_loop(argv[2]);
	return 2;
}
