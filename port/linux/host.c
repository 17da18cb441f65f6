/*
 * port/linux/host.c: bringing the Linux user-space host up and down.
 *
 * Order matters: the arena before anything the core allocates, the slots
 * (sized in the arena) before dtrace_init() sizes its per-CPU state with
 * dtrace_port_ncpus(), the fault handlers before any probe can fire, and
 * the providers last.  Teardown runs the other way and stops at the first
 * step that refuses (dtrace_fini() while a state is open).  A process-local
 * mutex serialises both.  Not probe context.
 */
#include <pthread.h>

#include "dtrace.h"
#include "host.h"
#include "linux_impl.h"

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static bool host_up;

int
dtrace_linux_host_init(void)
{
	int err;

	pthread_mutex_lock(&host_lock);
	if (host_up) {
		pthread_mutex_unlock(&host_lock);
		return 0;
	}
	if ((err = linux_arena_create(0)) != 0)
		goto out;
	linux_slots_init(0);
	linux_thread_refresh_execname();
	linux_unwind_refresh();
	if ((err = linux_trap_install()) != 0)
		goto fail_arena;
	if ((err = dtrace_init()) != 0)
		goto fail_trap;
	if ((err = linux_profile_register()) != 0)
		goto fail_core;
	if ((err = linux_syscall_register()) != 0) {
		(void)linux_profile_unregister();
		goto fail_core;
	}
	host_up = true;
	goto out;
fail_core:
	dtrace_fini();
fail_trap:
	linux_trap_uninstall();
fail_arena:
	linux_arena_destroy();
out:
	pthread_mutex_unlock(&host_lock);
	return err;
}

int
dtrace_linux_host_fini(void)
{
	int err = 0;

	pthread_mutex_lock(&host_lock);
	if (!host_up)
		goto out;
	/* The traced processes first: their providers must be gone before
	 * the core can go, and their agents told that tracing is over. */
	if ((err = linux_proc_release_all()) != 0)
		goto out;
	if ((err = linux_syscall_unregister()) != 0)
		goto out;
	if ((err = linux_profile_unregister()) != 0) {
		linux_syscall_register();
		goto out;
	}
	if ((err = dtrace_fini()) != 0) {
		linux_profile_register();
		linux_syscall_register();
		goto out;
	}
	linux_pid_fini();
	linux_code_destroy();
	linux_cputimer_shutdown();
	linux_trap_uninstall();
	linux_arena_destroy();
	host_up = false;
out:
	pthread_mutex_unlock(&host_lock);
	return err;
}
