/*
 * tests/port/fault_chaining.c: faults that are not the port's reach the
 * process as if the port were not there.
 *
 * Each case runs in a forked child with the port's handlers installed:
 *   - no previous handler: a NULL dereference kills the child by SIGSEGV;
 *   - a previous SA_SIGINFO handler: it is called (the child exits 42);
 *   - a previous plain handler for SIGBUS sent with kill(): it is called;
 *   - raise(SIGTRAP) with no handler kills the child by SIGTRAP;
 *   - after a nofault fault, a real one still kills the child.
 * Under a sanitizer, whose SIGSEGV handler was there first, "kills" means
 * that handler ran and ended the child with a failure status.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static volatile int *volatile null_ptr;

static void
previous_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	_exit(sig == SIGSEGV && si->si_addr == NULL ? 42 : 43);
}

static void
previous_plain(int sig)
{
	_exit(sig == SIGBUS ? 44 : 45);
}

static int
run_child(void (*body)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		body();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void
null_deref(void)
{
	linux_trap_install();
	(void)*null_ptr;
}

static void
null_deref_with_previous(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = previous_siginfo;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	linux_trap_install();
	(void)*null_ptr;
}

static void
sigbus_sent_with_previous(void)
{
	signal(SIGBUS, previous_plain);
	linux_trap_install();
	kill(getpid(), SIGBUS);
}

static void
sigtrap_raised(void)
{
	linux_trap_install();
	raise(SIGTRAP);
}

static void
nofault_then_real_fault(void)
{
	uint64_t v;
	uintptr_t fa;

	linux_trap_install();
	if (dtrace_port_load(DTRACE_AS_KERNEL, 8, 8, &v, &fa) == 0)
		_exit(3);
	(void)*null_ptr;
}

static struct sigaction at_start;

/* Died of SIGSEGV, or of the handler that was installed before the port. */
static bool
died_of_segv(int st)
{
	if (at_start.sa_handler != SIG_DFL)
		return WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
}

int
main(void)
{
	int st;

	sigaction(SIGSEGV, NULL, &at_start);
	st = run_child(null_deref);
	CHECK(died_of_segv(st), "NULL dereference: status %#x", st);
	st = run_child(null_deref_with_previous);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "previous SA_SIGINFO handler: status %#x",
	      st);
	st = run_child(sigbus_sent_with_previous);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 44, "previous plain handler: status %#x", st);
	st = run_child(sigtrap_raised);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTRAP, "raise(SIGTRAP): status %#x", st);
	st = run_child(nofault_then_real_fault);
	CHECK(died_of_segv(st), "real fault after nofault: status %#x", st);
	TEST_DONE();
}
