/*
 * pidjump MODE ...: a traced program for jump-patched pid probes (jump/,
 * x86_64).  Its probed functions are written out in assembly so that the
 * bytes a jump replaces are known:
 *   jumpable(a, b)  push %rbp; mov %rsp,%rbp; mov %rdi,%rax; add %rsi,%rax;
 *                   pop %rbp; ret: a + b, and no other register touched
 *   entered(a)      push %rbp; 1: mov %rdi,%rax; ...: entered_mid is its
 *                   second instruction, and enter_mid(a) jumps there from
 *                   outside, as glibc's mempcpy enters memmove: a jump
 *                   must never replace entered's first bytes
 *   regcheck()      fills every general register but %rsp, the flags and
 *                   %xmm0-15 with known values, calls jumpable(1, 2) and
 *                   returns 0 if it got 3 and every one of them back
 * It says on standard output how the first byte of the probed functions is
 * patched while it runs ("jump", "breakpoint" or "original") and exits 0
 * when every call returned what it should.
 *   threads T N  T threads each call jumpable N times and regcheck N/100
 *                times
 *   entered N    entered and enter_mid, N times each
 *   fork N       jumpable N times; a forked child says how its copy of the
 *                text is patched and calls it N times; vfork children call
 *                it twice each and exit
 *   grab F       for -p: writes "pid address-of-jumpable" to F, then calls
 *                jumpable every 5 ms until SIGTERM
 *   spin T F     for -p: T threads call jumpable (and now and then
 *                regcheck) as fast as they can until SIGTERM, so that
 *                probes are placed while threads run; F as for grab
 * Other ISAs: a C jumpable, "n/a" for the patch, no regcheck.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long jumpable(long a, long b);
long entered(long a);
long enter_mid(long a);
long regcheck(void);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl jumpable\n.type jumpable,@function\n"
	"jumpable:\n"
	"	push %rbp\n	mov %rsp,%rbp\n	mov %rdi,%rax\n	add %rsi,%rax\n"
	"	pop %rbp\n	ret\n"
	".size jumpable,.-jumpable\n"
	".globl entered\n.type entered,@function\n"
	"entered:\n"
	"	push %rbp\n"
	"entered_mid:\n"
	"	mov %rdi,%rax\n	add $1,%rax\n	pop %rbp\n	ret\n"
	".size entered,.-entered\n"
	".globl enter_mid\n.type enter_mid,@function\n"
	"enter_mid:\n"
	"	push %rbp\n	add $10,%rdi\n	jmp entered_mid\n"
	".size enter_mid,.-enter_mid\n"
	/* regcheck: r12..r15, rbx, rbp saved; known values everywhere */
	".globl regcheck\n.type regcheck,@function\n"
	"regcheck:\n"
	"	push %rbx\n	push %rbp\n	push %r12\n	push %r13\n	push %r14\n	push %r15\n"
	"	sub $8,%rsp\n"
	"	mov $0x1001,%rax\n	movq %rax,%xmm0\n	mov $0x1002,%rax\n	movq %rax,%xmm1\n"
	"	mov $0x1003,%rax\n	movq %rax,%xmm2\n	mov $0x1004,%rax\n	movq %rax,%xmm3\n"
	"	mov $0x1005,%rax\n	movq %rax,%xmm4\n	mov $0x1006,%rax\n	movq %rax,%xmm5\n"
	"	mov $0x1007,%rax\n	movq %rax,%xmm6\n	mov $0x1008,%rax\n	movq %rax,%xmm7\n"
	"	mov $0x1009,%rax\n	movq %rax,%xmm8\n	mov $0x100a,%rax\n	movq %rax,%xmm9\n"
	"	mov $0x100b,%rax\n	movq %rax,%xmm10\n	mov $0x100c,%rax\n	movq %rax,%xmm11\n"
	"	mov $0x100d,%rax\n	movq %rax,%xmm12\n	mov $0x100e,%rax\n	movq %rax,%xmm13\n"
	"	mov $0x100f,%rax\n	movq %rax,%xmm14\n	mov $0x1010,%rax\n	movq %rax,%xmm15\n"
	"	mov $0x2001,%rbx\n	mov $0x2002,%rbp\n	mov $0x2003,%rcx\n	mov $0x2004,%rdx\n"
	"	mov $0x2005,%r8\n	mov $0x2006,%r9\n	mov $0x2007,%r10\n	mov $0x2008,%r11\n"
	"	mov $0x2009,%r12\n	mov $0x200a,%r13\n	mov $0x200b,%r14\n	mov $0x200c,%r15\n"
	"	mov $1,%rdi\n	mov $2,%rsi\n"
	"	std\n" /* the direction flag set: the trampoline must give it back */
	"	call jumpable\n"
	"	pushf\n	pop %rdi\n	cld\n"
	"	bt $10,%rdi\n	jnc 9f\n"
	"	cmp $3,%rax\n	jne 9f\n"
	"	cmp $2,%rsi\n	jne 9f\n"
	"	cmp $0x2001,%rbx\n	jne 9f\n	cmp $0x2002,%rbp\n	jne 9f\n"
	"	cmp $0x2003,%rcx\n	jne 9f\n	cmp $0x2004,%rdx\n	jne 9f\n"
	"	cmp $0x2005,%r8\n	jne 9f\n	cmp $0x2006,%r9\n	jne 9f\n"
	"	cmp $0x2007,%r10\n	jne 9f\n	cmp $0x2008,%r11\n	jne 9f\n"
	"	cmp $0x2009,%r12\n	jne 9f\n	cmp $0x200a,%r13\n	jne 9f\n"
	"	cmp $0x200b,%r14\n	jne 9f\n	cmp $0x200c,%r15\n	jne 9f\n"
	"	mov $0x1001,%rcx\n	movq %xmm0,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1002,%rcx\n	movq %xmm1,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1003,%rcx\n	movq %xmm2,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1004,%rcx\n	movq %xmm3,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1005,%rcx\n	movq %xmm4,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1006,%rcx\n	movq %xmm5,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1007,%rcx\n	movq %xmm6,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1008,%rcx\n	movq %xmm7,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1009,%rcx\n	movq %xmm8,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100a,%rcx\n	movq %xmm9,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100b,%rcx\n	movq %xmm10,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100c,%rcx\n	movq %xmm11,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100d,%rcx\n	movq %xmm12,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100e,%rcx\n	movq %xmm13,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x100f,%rcx\n	movq %xmm14,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	mov $0x1010,%rcx\n	movq %xmm15,%rax\n	cmp %rcx,%rax\n	jne 9f\n"
	"	xor %eax,%eax\n	jmp 8f\n"
	"9:	cld\n	mov $1,%eax\n"
	"8:	add $8,%rsp\n"
	"	pop %r15\n	pop %r14\n	pop %r13\n	pop %r12\n	pop %rbp\n	pop %rbx\n"
	"	ret\n"
	".size regcheck,.-regcheck\n");

static const char *
patched(const void *fn)
{
	unsigned char b = *(const volatile unsigned char *)fn;

	return b == 0xe9 ? "jump" : b == 0xcc ? "breakpoint" : b == 0x55 ? "original" : "unknown";
}
#else
__attribute__((noinline)) long
jumpable(long a, long b)
{
	__asm__ volatile("");
	return a + b;
}

__attribute__((noinline)) long
entered(long a)
{
	__asm__ volatile("");
	return a + 1;
}

__attribute__((noinline)) long
enter_mid(long a)
{
	return entered(a + 10);
}

long
regcheck(void)
{
	return jumpable(1, 2) == 3 ? 0 : 1;
}

static const char *
patched(const void *fn)
{
	(void)fn;
	return "n/a";
}
#endif

static long ncalls;
static volatile long bad;
static volatile sig_atomic_t stop;

static void *
run(void *arg)
{
	(void)arg;
	for (long i = 0; i < ncalls; i++) {
		if (jumpable(i, 7) != i + 7)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		if (i % 100 == 0 && regcheck() != 0)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *
spin(void *arg)
{
	(void)arg;
	for (long i = 0; !stop; i++) {
		if (jumpable(i, 3) != i + 3)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		if (i % 4096 == 0 && regcheck() != 0)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* "pid address-of-jumpable" to path, whole or not at all. */
static int
write_info(const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL)
		return -1;
	fprintf(f, "%d %lu\n", (int)getpid(), (unsigned long)(void *)jumpable);
	fclose(f);
	return rename(tmp, path);
}

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int
calls_ok(long n)
{
	for (long i = 0; i < n; i++)
		if (jumpable(i, 1) != i + 1)
			return 0;
	return 1;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	pthread_t t[64];

	if (strcmp(mode, "threads") == 0 && argc == 4) {
		long nt = atol(argv[2]);

		ncalls = atol(argv[3]);
		if (nt < 1 || nt > 64)
			return 2;
		printf("jumpable: %s\n", patched((const void *)jumpable));
		for (long i = 0; i < nt; i++)
			pthread_create(&t[i], NULL, run, NULL);
		for (long i = 0; i < nt; i++)
			pthread_join(t[i], NULL);
		printf("calls %s\n", bad == 0 ? "ok" : "wrong");
		return bad != 0;
	}
	if (strcmp(mode, "entered") == 0 && argc == 3) {
		long n = atol(argv[2]);

		printf("entered: %s\n", patched((const void *)entered));
		for (long i = 0; i < n; i++)
			if (entered(i) != i + 1 || enter_mid(i) != i + 11)
				bad++;
		printf("calls %s\n", bad == 0 ? "ok" : "wrong");
		return bad != 0;
	}
	if (strcmp(mode, "fork") == 0 && argc == 3) {
		long n = atol(argv[2]);
		int st, ok = calls_ok(n);
		pid_t c;

		printf("parent: %s\n", patched((const void *)jumpable));
		fflush(stdout);
		if ((c = fork()) == 0) {
			printf("fork child: %s\n", patched((const void *)jumpable));
			fflush(stdout);
			_exit(calls_ok(n) ? 0 : 1);
		}
		waitpid(c, &st, 0);
		printf("fork child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		for (int k = 0; k < 3; k++) {
			if ((c = vfork()) == 0)
				_exit(jumpable(1, 2) == 3 && jumpable(3, 4) == 7 ? 0 : 1);
			waitpid(c, &st, 0);
			printf("vfork child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		}
		printf("calls %s\n", ok ? "ok" : "wrong");
		return !ok;
	}
	if (strcmp(mode, "spin") == 0 && argc == 4) {
		long nt = atol(argv[2]);
		sigset_t term, old;

		if (nt < 1 || nt > 64)
			return 2;
		/* only the main thread takes SIGTERM */
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		signal(SIGTERM, on_term);
		pthread_sigmask(SIG_BLOCK, &term, &old);
		for (long i = 0; i < nt; i++)
			pthread_create(&t[i], NULL, spin, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (write_info(argv[3]) != 0)
			return 2;
		while (!stop)
			pause();
		for (long i = 0; i < nt; i++)
			pthread_join(t[i], NULL);
		printf("calls %s\n", bad == 0 ? "ok" : "wrong");
		return bad != 0;
	}
	if (strcmp(mode, "grab") == 0 && argc == 3) {
		struct timespec ms = {0, 5000000};

		signal(SIGTERM, on_term);
		if (write_info(argv[2]) != 0)
			return 2;
		for (long i = 0; !stop; i++) {
			if (jumpable(i, 2) != i + 2 || (i % 100 == 0 && regcheck() != 0))
				bad++;
			nanosleep(&ms, NULL);
		}
		printf("calls %s\n", bad == 0 ? "ok" : "wrong");
		return bad != 0;
	}
	fprintf(stderr, "usage: pidjump threads T N | entered N | fork N | grab FILE | spin T FILE\n");
	return 2;
}
