/*
 * port/linux/syscall.c: the `syscall` provider for traced processes.
 *
 * As DTrace's syscall provider: syscall::NAME:entry and syscall::NAME:return
 * for every system call of this ISA's table (linux_syscalls.h, generated at
 * build time from the kernel's <asm/unistd.h>), entry with the call's six
 * arguments (arg0..arg5), return with its result in arg0 and arg1 (-1 on
 * failure, with errno set), probefunc the call's name.  The probes fire in
 * the traced processes, in the thread making the call: the consumer writes
 * the enabled probes' ids into each process's table (agent_proto.h) and
 * tells its agent, which traps those calls with seccomp filters
 * (agent_syscall.c, where the mechanism and its costs are described).
 * Processes adopted later get the table when they arrive.
 *
 * Locking: sys_lock guards the enabled ids and the tables; it is taken
 * inside the core's locks and never held across a call into the core.
 * Not probe context.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_proto.h"
#include "dtrace.h"
#include "linux_impl.h"

typedef struct sys_call {
	const char *sc_name;
	unsigned sc_nr;
} sys_call_t;

static const sys_call_t sys_calls[] = {
#define LINUX_SYSCALL(name, nr) {#name, nr},
#include "linux_syscalls.h"
#undef LINUX_SYSCALL
};
#define SYS_NCALLS (sizeof(sys_calls) / sizeof(sys_calls[0]))

/* A probe's argument: which call, and which end. */
typedef struct sys_probe {
	unsigned sp_nr;
	bool sp_return;
	dtrace_id_t sp_id;
} sys_probe_t;

static sys_probe_t sys_probes[2 * SYS_NCALLS];
static uint32_t sys_entry[LINUX_AGENT_MAXSYS], sys_return[LINUX_AGENT_MAXSYS];
static unsigned sys_nenabled;
static pthread_mutex_t sys_lock = PTHREAD_MUTEX_INITIALIZER;
static dtrace_provider_id_t sys_prov;
static bool sys_registered, sys_provided;

/* Write the enabled ids into one process's table and tell its agent. */
static int
sys_publish_one(linux_proc_t *p, void *arg)
{
	linux_agent_block_t *b = p->lp_block;
	linux_agent_sys_t *t = b->lab_sys;

	(void)arg;
	if (p->lp_state == LINUX_PROC_GONE)
		return 0;
	if (t == NULL) {
		if (sys_nenabled == 0)
			return 0; /* nothing asked of it yet */
		if ((t = dtrace_port_zalloc_probe(sizeof(*t))) == NULL)
			return 0;
		__atomic_store_n(&b->lab_sys, t, __ATOMIC_RELEASE);
	}
	for (unsigned i = 0; i < LINUX_AGENT_MAXSYS; i++) {
		__atomic_store_n(&t->las_entry[i], sys_entry[i], __ATOMIC_RELAXED);
		__atomic_store_n(&t->las_return[i], sys_return[i], __ATOMIC_RELAXED);
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	(void)linux_agent_notify(p, LINUX_AGENT_SYSCALL);
	return 0;
}

static void
sys_publish(void)
{
	(void)linux_proc_foreach(sys_publish_one, NULL);
}

void
linux_syscall_proc_added(linux_proc_t *p)
{
	pthread_mutex_lock(&sys_lock);
	(void)sys_publish_one(p, NULL);
	pthread_mutex_unlock(&sys_lock);
}

void
linux_syscall_modules_changed(linux_proc_t *p)
{
	/* the agent adds the text of new objects to what it traps */
	pthread_mutex_lock(&sys_lock);
	if (sys_nenabled > 0)
		(void)sys_publish_one(p, NULL);
	else if (p->lp_block->lab_guard)
		(void)linux_agent_notify(p, LINUX_AGENT_SYSCALL); /* the guard's too */
	pthread_mutex_unlock(&sys_lock);
}

static void
sys_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
	if (sys_provided)
		return;
	sys_provided = true;
	for (size_t i = 0; i < SYS_NCALLS; i++) {
		for (int r = 0; r < 2; r++) {
			sys_probe_t *sp = &sys_probes[2 * i + (size_t)r];

			if (sys_calls[i].sc_nr >= LINUX_AGENT_MAXSYS)
				continue;
			sp->sp_nr = sys_calls[i].sc_nr;
			sp->sp_return = r != 0;
			sp->sp_id = dtrace_probe_create(sys_prov, "", sys_calls[i].sc_name,
			                                r ? "return" : "entry", 0, sp);
		}
	}
}

static int
sys_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	sys_probe_t *sp = parg_probe;

	(void)parg;
	pthread_mutex_lock(&sys_lock);
	if ((sp->sp_return ? sys_return : sys_entry)[sp->sp_nr] == 0) {
		(sp->sp_return ? sys_return : sys_entry)[sp->sp_nr] = id;
		sys_nenabled++;
		sys_publish();
	}
	pthread_mutex_unlock(&sys_lock);
	return 0;
}

static void
sys_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	sys_probe_t *sp = parg_probe;

	(void)parg;
	(void)id;
	pthread_mutex_lock(&sys_lock);
	if ((sp->sp_return ? sys_return : sys_entry)[sp->sp_nr] != 0) {
		(sp->sp_return ? sys_return : sys_entry)[sp->sp_nr] = 0;
		sys_nenabled--;
		sys_publish();
	}
	pthread_mutex_unlock(&sys_lock);
}

static void
sys_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static const dtrace_pops_t sys_pops = {
    .dtps_provide = sys_provide,
    .dtps_enable = sys_enable,
    .dtps_disable = sys_disable,
    .dtps_getargdesc = NULL,
    .dtps_getargval = NULL,
    .dtps_destroy = sys_destroy,
};

/* DTrace's stability for syscall: names Evolving/Common, module Private,
 * functions and arguments Evolving/ISA (the table is the ISA's). */
static const dtrace_pattr_t sys_attr = {
    .dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    .dtpa_func = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    .dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_args = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
};

int
linux_syscall_register(void)
{
	int err;

	if (sys_registered)
		return 0;
	err = dtrace_register("syscall", &sys_attr, DTRACE_PRIV_USER, &sys_pops, NULL, &sys_prov);
	if (err == 0)
		sys_registered = true;
	return err;
}

int
linux_syscall_unregister(void)
{
	int err;

	if (!sys_registered)
		return 0;
	if ((err = dtrace_unregister(sys_prov)) != 0)
		return err;
	sys_registered = false;
	sys_provided = false;
	memset(sys_probes, 0, sizeof(sys_probes));
	return 0;
}
