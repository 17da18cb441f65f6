/*
 * pidsignals MODE: a traced program meeting breakpoints where signals are
 * blocked or handled, or in a child that shares its memory.  It says what
 * it saw on standard output and exits 0 when all went as it should.
 *   blocked  a thread blocks every signal and calls work() 100 times
 *   threads  8 threads created and joined (glibc starts each with every
 *            signal blocked, and calls __ctype_init before unblocking)
 *   spawn    posix_spawn /bin/true 3 times (the child calls execve on the
 *            parent's memory); the parent calls work() 3 times
 *   vfork    vfork 3 times: each child calls work() twice and execs
 *            /bin/true; the parent calls work() 3 times
 *   handler  its own SIGTRAP handler, installed after the agent's; work()
 *            5 times, raise(SIGTRAP) twice: the handler sees the 2 raised
 *   dlopen L a thread that blocks every signal loads and unloads library L
 *            twice (as glibc's NSS does from any thread): the dynamic
 *            linker's debugger breakpoint, where the agent hears of it
 *   grab F   for -p: writes its pid to F; a thread that blocked every
 *            signal before any agent came calls work() every millisecond
 *            until the program gets SIGTERM
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
volatile long sink;
static volatile sig_atomic_t handled;

__attribute__((noinline)) void
work(long i)
{
	__asm__ volatile("");
	sink += i;
}

static void *
blocked_thread(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (long i = 0; i < 100; i++)
		work(i);
	return NULL;
}

static volatile sig_atomic_t stop;

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void *
blocked_loop(void *arg)
{
	struct timespec ms = {0, 1000000};
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (!stop) {
		work(1);
		nanosleep(&ms, NULL);
	}
	return NULL;
}

static void *
blocked_dlopen(void *arg)
{
	sigset_t all;
	int n = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (int i = 0; i < 2; i++) {
		void *h = dlopen(arg, RTLD_NOW);

		if (h != NULL) {
			n++;
			dlclose(h);
		}
	}
	return (void *)(intptr_t)n;
}

static void *
nothing(void *arg)
{
	return arg;
}

static int
child_status(pid_t p)
{
	int st = -1;

	if (waitpid(p, &st, 0) != p)
		return -1;
	return st;
}

/* The child runs work() on our memory before its exec. */
__attribute__((noinline)) static pid_t
vfork_true(char **av)
{
	pid_t p = vfork();

	if (p == 0) {
		work(100);
		work(101);
		execve("/bin/true", av, environ);
		_exit(127);
	}
	return p;
}

static void
on_trap(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
	handled++;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char *av[] = {"/bin/true", NULL};
	int bad = 0;

	if (strcmp(mode, "blocked") == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, blocked_thread, NULL) != 0)
			return 1;
		pthread_join(t, NULL);
		printf("blocked thread done\n");
	} else if (strcmp(mode, "threads") == 0) {
		pthread_t t[8];

		for (int i = 0; i < 8; i++)
			if (pthread_create(&t[i], NULL, nothing, NULL) != 0)
				return 1;
		for (int i = 0; i < 8; i++)
			pthread_join(t[i], NULL);
		printf("8 threads done\n");
	} else if (strcmp(mode, "spawn") == 0) {
		for (int i = 0; i < 3; i++) {
			pid_t p;
			int e = posix_spawn(&p, "/bin/true", NULL, NULL, av, environ);

			work(i);
			printf("spawn %d status %d\n", e, e == 0 ? child_status(p) : -1);
		}
	} else if (strcmp(mode, "vfork") == 0) {
		for (int i = 0; i < 3; i++) {
			pid_t p = vfork_true(av);

			work(i);
			printf("vfork %d status %d\n", p > 0 ? 0 : -1, p > 0 ? child_status(p) : -1);
		}
	} else if (strcmp(mode, "handler") == 0) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_trap;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGTRAP, &sa, NULL) != 0)
			return 1;
		for (long i = 0; i < 5; i++)
			work(i);
		raise(SIGTRAP);
		raise(SIGTRAP);
		/* and the program reads back what it installed */
		if (sigaction(SIGTRAP, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) == 0 ||
		    old.sa_sigaction != on_trap)
			bad = 1;
		printf("handler called %d times%s\n", (int)handled,
		       bad ? ", but sigaction reads back another" : "");
		bad = bad || handled != 2;
	} else if (strcmp(mode, "dlopen") == 0 && argc > 2) {
		pthread_t t;
		void *n;

		if (pthread_create(&t, NULL, blocked_dlopen, argv[2]) != 0)
			return 1;
		pthread_join(t, &n);
		printf("loaded %d times\n", (int)(intptr_t)n);
		bad = n != (void *)2;
	} else if (strcmp(mode, "grab") == 0 && argc > 2) {
		FILE *f = fopen(argv[2], "w");
		pthread_t t;

		signal(SIGTERM, on_term);
		if (f == NULL || pthread_create(&t, NULL, blocked_loop, NULL) != 0)
			return 1;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		while (!stop)
			pause();
		pthread_join(t, NULL);
		printf("blocked thread stopped\n");
	} else {
		return 2;
	}
	fflush(stdout);
	return bad;
}
