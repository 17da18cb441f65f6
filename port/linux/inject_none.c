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
