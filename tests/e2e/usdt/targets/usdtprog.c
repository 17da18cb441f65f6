/*
 * usdtprog MODE: SystemTap probes (<sys/sdt.h>) whose arguments the
 * compiler puts in every place a note can describe: registers and parts of
 * them, constants, the stack, a global through %rip, an indexed element,
 * twelve arguments, a string.  Modes:
 *   args        fire each probe once and exit
 *   loop FILE   for -p tests: write "pid semaphore-address" to FILE, then
 *               every millisecond fire `guarded` if its semaphore says
 *               so, until SIGTERM; exit 0
 *   fork        fire `guarded` (if enabled), fork a child that reports its
 *               semaphore's value and fires the probe's site untraced
 *   count N     N rounds of `guarded` (if enabled), then print how many
 *               times the guarded work ran
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "usdtsem.h"

long g_long = -1234567890123L;
int g_int = 42;
static volatile sig_atomic_t stop;

__attribute__((noinline)) void
fire_regs(long a, int b, unsigned char c, signed char d, short e)
{
	STAP_PROBE5(usdtprog, regs, a, b, c, d, e);
	__asm__ volatile("" ::: "memory");
}

/* Unoptimized, so the note's operands are stack slots (8@-16(%rbp)). */
#ifdef __clang__
#define UNOPTIMIZED optnone
#else
#define UNOPTIMIZED optimize("O0")
#endif

__attribute__((noinline, UNOPTIMIZED)) void
fire_stack(long a, int b, unsigned short c)
{
	STAP_PROBE3(usdtprog, stack, a, b, c);
}

__attribute__((noinline)) void
fire_consts(void)
{
	STAP_PROBE3(usdtprog, consts, 5, -7, 0x12345678);
}

__attribute__((noinline)) void
fire_global(void)
{
	STAP_PROBE2(usdtprog, global, g_long, g_int);
}

__attribute__((noinline)) void
fire_indexed(const long *tab, long i)
{
	STAP_PROBE2(usdtprog, indexed, tab[i], tab[i + 1]);
}

__attribute__((noinline)) void
fire_many(void)
{
	STAP_PROBE12(usdtprog, many, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
}

__attribute__((noinline)) void
fire_string(const char *s)
{
	STAP_PROBE2(usdtprog, string, s, strlen(s));
}

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	static long tab[8] = {10, 20, 30, 40, 50, 60, 70, 80};
	volatile long idx = 3;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "args") == 0) {
		fire_regs(-9000000000L, -100000, 200, -3, -300);
		fire_stack(123456789012L, -5, 65535);
		fire_consts();
		fire_global();
		fire_indexed(tab, idx);
		fire_many();
		fire_string("hello, probe");
		return 0;
	}
	if (strcmp(argv[1], "count") == 0 && argc > 2) {
		long n = atol(argv[2]), ran = 0;

		for (long i = 0; i < n; i++)
			ran += usdtsem_guarded(i);
		printf("guarded work ran %ld times\n", ran);
		return 0;
	}
	if (strcmp(argv[1], "loop") == 0 && argc > 2) {
		struct timespec ms = {0, 1000000};
		FILE *f = fopen(argv[2], "w");

		if (f == NULL)
			return 2;
		signal(SIGTERM, on_term);
		fprintf(f, "%d %p\n", (int)getpid(), usdtsem_address());
		fclose(f);
		for (long i = 0; !stop; i++) {
			usdtsem_guarded(i);
			nanosleep(&ms, NULL);
		}
		return 0;
	}
	if (strcmp(argv[1], "fork") == 0) {
		int status;
		pid_t child;

		usdtsem_guarded(1);
		if ((child = fork()) == 0) {
			printf("child: semaphore %u\n", usdtsem_value());
			fflush(stdout);
			usdtsem_fire(2);
			_exit(0);
		}
		waitpid(child, &status, 0);
		printf("child: %s\n",
		       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "exited 0" : "died");
		usdtsem_guarded(3);
		return 0;
	}
	return 2;
}
