/*
 * port/linux/destructive.c: destructive actions (port.h section 9).
 *
 * raise() and stop() are posted in the thread's TLS and performed by
 * dtrace_port_probe_exit() once the slot is released.  chill() spins on the
 * monotonic clock.  breakpoint() sends SIGTRAP to the thread: with no
 * debugger attached that ends the process as an uncaught breakpoint would.
 * panic() writes its message to standard error and aborts the process.
 * Probe context: yes (write(2), tgkill(2) and abort() are
 * async-signal-safe).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_impl.h"

void
dtrace_port_raise(int sig)
{
	if (sig > 0 && sig < NSIG)
		linux_pending_signal = sig;
}

void
dtrace_port_stop(void)
{
	linux_pending_stop = true;
}

void
dtrace_port_chill(uint64_t ns)
{
	uint64_t end = dtrace_port_gethrtime() + ns;

	while (dtrace_port_gethrtime() < end)
		__asm__ __volatile__("" ::: "memory");
}

void
dtrace_port_breakpoint(void)
{
	syscall(SYS_tgkill, linux_self_pid(), linux_self_tid(), SIGTRAP);
}

void
dtrace_port_panic(const char *msg)
{
	static const char prefix[] = "dtrace: panic: ";

	(void)!write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
	if (msg != NULL)
		(void)!write(STDERR_FILENO, msg, strlen(msg));
	(void)!write(STDERR_FILENO, "\n", 1);
	abort();
}
