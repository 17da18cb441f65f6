/*
 * port/freebsd/prov_syscall.c: the syscall provider's FreeBSD half, through
 * the hooks the FreeBSD kernel keeps for it (sys/sysent.h); kernel/sysprov.c
 * owns the probes.
 *
 * Every native system call named in syscallnames[] has an entry and a
 * return probe.  Enabling one stores its probe id in the sysent entry's
 * sy_entry or sy_return and the syscall path, seeing systrace_enabled and a
 * non-zero id, calls systrace_probe_func with the call's arguments, which
 * fires the probe: entry with the first five arguments, return with the
 * return value (and -1 for an error) in arg0 and arg1 as DTrace does.
 * Only the native ABI (sysent[]) is offered; the freebsd32 and Linux
 * tables are not.
 */
#include "freebsd_impl.h"
#include "sysprov.h"

#include <sys/syscall.h>
#include <sys/sysent.h>
#include <sys/sysproto.h>

static systrace_probe_func_t fbsd_sc_saved_func;
static bool fbsd_sc_saved_enabled;

static void
fbsd_sc_probe(struct syscall_args *sa, enum systrace_probe_t type, int retval)
{
	uint32_t id = type == SYSTRACE_ENTRY ? sa->callp->sy_entry : sa->callp->sy_return;
	uint64_t a[5] = {0, 0, 0, 0, 0};

	if (id == 0)
		return;
	if (type == SYSTRACE_ENTRY) {
		for (int i = 0; i < 5 && i < sa->narg; i++)
			a[i] = (uint64_t)sa->args[i];
	} else {
		a[0] = a[1] = (uint64_t)(int64_t)retval;
	}
	dtrace_probe(id, a[0], a[1], a[2], a[3], a[4]);
}

static const char *
fbsd_sc_name(int n)
{
	return sysent[n].sy_call == (sy_call_t *)nosys ? NULL : syscallnames[n];
}

static void
fbsd_sc_set(int n, bool ret, dtrace_id_t id)
{
	if (ret)
		sysent[n].sy_return = id;
	else
		sysent[n].sy_entry = id;
}

static void
fbsd_sc_active(bool on)
{
	systrace_enabled = on ? true : fbsd_sc_saved_enabled;
}

static const ksys_ops_t fbsd_sc_ops = {"freebsd", SYS_MAXSYSCALL, fbsd_sc_name, fbsd_sc_set,
				       fbsd_sc_active};

int
fbsd_syscall_init(void)
{
	int err;

	if ((err = ksys_register(&fbsd_sc_ops)) != 0)
		return err;
	fbsd_sc_saved_func = systrace_probe_func;
	fbsd_sc_saved_enabled = systrace_enabled;
	systrace_probe_func = fbsd_sc_probe;
	return 0;
}

int
fbsd_syscall_fini(void)
{
	int err;

	if ((err = ksys_unregister()) != 0)
		return err;
	systrace_probe_func = fbsd_sc_saved_func;
	systrace_enabled = fbsd_sc_saved_enabled;
	return 0;
}
