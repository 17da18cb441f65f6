/*
 * port/netbsd/syscall.c: the `syscall` provider's NetBSD half (NetBSD's
 * systrace); kernel/sysprov.c owns the probes.
 *
 * NetBSD's system-call path has the hook built in (kern_syscall.c,
 * trace_enter/trace_exit, under KDTRACE_HOOKS): when a system call's
 * sysent entry has a non-zero sy_entry or sy_return, the process's
 * emulation's e_dtrace_syscall is called with that probe id, the call's
 * number, its sysent, its arguments and, on return, its values and error.
 * So enabling a probe is storing its id in the table, and the provider's
 * one function is the e_dtrace_syscall of the native emulation,
 * emul_netbsd, put back as it was at unload.
 *
 * Probes are syscall:netbsd:<name>:entry and :return for every named entry
 * of emul_netbsd's table (unimplemented and obsolete slots have names
 * beginning with '#' and get none).  entry's arguments are the call's, as
 * register_t words of its syscallarg structure (the first five; later ones
 * read as 0); return's arg0 and arg1 are the returned value, -1 on error.
 *
 * A kernel built without KDTRACE_HOOKS has the same fields and never calls
 * the hook: the probes would exist and never fire.  The rump kernel here is
 * such a kernel, and its emul_netbsd also has no e_syscallnames, so there
 * the provider is registered with no probes.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/proc.h>
#include <sys/syscall.h>

#include "netbsd_impl.h"
#include "sysprov.h"

typedef void (*dtnb_syscall_hook_t)(uint32_t, register_t, const struct sysent *, const void *,
				    const register_t *, int);

static dtnb_syscall_hook_t sys_saved_hook;

static void
sys_probe(uint32_t id, register_t code, const struct sysent *sy, const void *args,
	  const register_t *rval, int error)
{
	const register_t *a = args;
	uint64_t v[5] = {0, 0, 0, 0, 0};

	(void)code;
	if (rval != NULL || error != 0) {
		v[0] = v[1] = error != 0 ? (uint64_t)-1 : (uint64_t)rval[0];
	} else if (a != NULL) {
		for (int i = 0; i < 5 && i < sy->sy_narg; i++)
			v[i] = (uint64_t)a[i];
	}
	dtrace_probe(id, v[0], v[1], v[2], v[3], v[4]);
}

/* A rump kernel's emulation has no name table: no probes there.  The ports
 * built here have minimal emulations (no e_nsysent): the native table has
 * SYS_MAXSYSCALL calls. */
static const char *
sys_name(int code)
{
	const char *name;

	if (emul_netbsd.e_syscallnames == NULL)
		return NULL;
	name = emul_netbsd.e_syscallnames[code];
	return name == NULL || name[0] == '#' ? NULL : name;
}

static void
sys_set(int code, bool ret, dtrace_id_t id)
{
	struct sysent *sy = &emul_netbsd.e_sysent[code];

	if (ret)
		sy->sy_return = id;
	else
		sy->sy_entry = id;
}

/* emul_netbsd.e_name is "netbsd". */
static const ksys_ops_t sys_ops = {"netbsd", SYS_MAXSYSCALL, sys_name, sys_set, NULL};

int
dtnb_syscall_init(void)
{
	int err;

	if ((err = ksys_register(&sys_ops)) != 0)
		return err;
	sys_saved_hook = emul_netbsd.e_dtrace_syscall;
	emul_netbsd.e_dtrace_syscall = sys_probe;
	return 0;
}

int
dtnb_syscall_fini(void)
{
	int err;

	/* Unregistering refuses while a probe is enabled, so no sy_entry or
	 * sy_return is left pointing at us once it succeeds. */
	if ((err = ksys_unregister()) != 0)
		return err;
	emul_netbsd.e_dtrace_syscall = sys_saved_hook;
	return 0;
}
