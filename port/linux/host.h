/*
 * port/linux/host.h: starting and stopping the Linux user-space host.
 *
 * The host runs the DTrace core as a library in the calling process:
 * dtrace_linux_host_init() creates the shared arena (a memfd mapped at one
 * address, from which the core allocates), sizes the CPU slots, installs
 * the SIGSEGV/SIGBUS/SIGTRAP handlers (chained to any that were there),
 * calls dtrace_init() and registers the `profile` provider (profile-N and
 * tick-N).  After it returns, the caller drives the core through
 * core/dtrace.h: dtrace_state_open(), dtrace_ctl(), dtrace_state_close().
 *
 * Both functions are for the consumer's thread, never probe context, and
 * are serialised internally.  They return 0 or an errno value.
 */
#ifndef DTRACE_PORT_LINUX_HOST_H
#define DTRACE_PORT_LINUX_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

/* Set the host up; idempotent (a second call returns 0 and does nothing).
 * The arena's size is DTRACE_ARENA_SIZE from the environment ("512M",
 * "8G", or bytes) or, by default, 8 GiB of address space that costs memory
 * only as it is used. */
int dtrace_linux_host_init(void);

/* Tear it down: unregister providers, dtrace_fini(), stop the per-CPU
 * threads, restore the signal handlers, unmap the arena.  Fails with EBUSY
 * (16), changing nothing, while a consumer state is open.  Returns 0 if
 * the host was not set up. */
int dtrace_linux_host_fini(void);

/*
 * Traced processes.  A consumer traces another process through an agent
 * running in it (port/linux/agent.c).  For `dtrace -c` the caller forks
 * and execs the command itself with the agent preloaded:
 *   1. dtrace_linux_proc_socketpair() gives the connection's two ends;
 *   2. the child execs with LD_PRELOAD naming dtrace_linux_agent_path()
 *      and DTRACE_AGENT_FD the number of its end (close the other);
 *   3. the parent passes its end to dtrace_linux_proc_created(), which
 *      waits for the agent (holding the program in its constructor),
 *      hands it the host's memory and registers provider pid<N>;
 *   4. dtrace_linux_proc_go() lets the program run once the probes are
 *      enabled.
 * dtrace_linux_proc_grab() does all of it for a running process, by
 * injecting the agent (ptrace).  Errors return an errno value with a
 * sentence for the user in errbuf.  Not probe context.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int dtrace_linux_proc_socketpair(int *consumer_end, int *agent_end);
/* 0 if the program at path can have the agent preloaded: it is dynamically
 * linked (the dynamic linker does the preloading) and not set-user-ID or
 * set-group-ID for this user (the dynamic linker ignores LD_PRELOAD
 * there); else an errno with the reason in errbuf. */
int dtrace_linux_proc_check(const char *path, char *errbuf, size_t errlen);
const char *dtrace_linux_agent_path(void);
int dtrace_linux_proc_created(pid_t pid, int consumer_end, char *errbuf, size_t errlen);
int dtrace_linux_proc_grab(pid_t pid, char *errbuf, size_t errlen);
int dtrace_linux_proc_go(pid_t pid);
/* 1, once, when pid's agent is gone but pid is not: it ran exec, which
 * took its probes (the new image runs untraced); else 0. */
int dtrace_linux_proc_dropped(pid_t pid);
/* Probe firings pid's agent refused (no probe context could be entered)
 * since the last call. */
uint64_t dtrace_linux_proc_refused(pid_t pid);
/* Why the last description offered to provider pid<pid> made no probe:
 * 1 offset outside the function, 2 not on an instruction, 3 not a probe
 * name, 4 no such function in the named module, 5 not traceable, 6 the
 * probe could not be made; 0 none.  DTrace's sentence goes in buf; the
 * reason is forgotten once read. */
int dtrace_linux_pid_why(pid_t pid, char *buf, size_t len);
/* The file pid runs, for `a.out`, into buf: /proc/<pid>/exe, or the program
 * a qemu-user started by binfmt_misc runs (proc_exe.c).  Returns 0, or an
 * errno value with buf empty. */
int dtrace_linux_proc_exe(pid_t pid, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_PORT_LINUX_HOST_H */
