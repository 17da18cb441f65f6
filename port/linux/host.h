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

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_PORT_LINUX_HOST_H */
