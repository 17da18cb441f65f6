/*
 * port/linux/inject_none.c: `dtrace -p` where the agent cannot be
 * injected.
 *
 * inject.c brings the agent into a running process with ptrace, with the
 * register and call-frame half written for x86_64.  The other ISAs are
 * built to run under qemu-user, whose guests have no ptrace, so CMake
 * picks this file for them: grabbing a process fails with a sentence that
 * says why, and `dtrace -c` (the agent preloaded) is unaffected.  Not
 * probe context.
 */
#include <errno.h>
#include <stdio.h>

#include "host.h"
#include "isa.h"
#include "linux_impl.h"

int
dtrace_linux_proc_grab(pid_t pid, char *errbuf, size_t errlen)
{
	(void)pid;
	snprintf(errbuf, errlen,
		 "attaching to a running process is implemented for x86_64 only (this is %s: "
		 "start the program with -c)",
		 isa_name);
	return ENOTSUP;
}

/* Nor are threads' masks mended for the signal guard (proc.c): a thread
 * that blocks SIGSYS makes the agent refuse the guard, and dtrace says so. */
void
linux_proc_unblock_traps(pid_t pid, bool skip_main)
{
	(void)pid;
	(void)skip_main;
}
