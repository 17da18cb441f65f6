/*
 * port/netbsd/device.c: the `dtrace` and `helper` character devices.
 *
 * One cdevsw "dtrace": minor 0 is the consumer's device
 * (/dev/dtrace/dtrace), minor 1 the helper device (/dev/dtrace/helper).
 * devsw_attach with NODEVMAJOR takes the major the kernel's majors table
 * gives "dtrace", or a free one; dtnb_cmajor says which (a rump host reads
 * it to make the nodes).
 *
 * Consumer states.  NetBSD's own DTrace gives every open its state through
 * fd_clone(), but <sys/filedesc.h> is not among the headers of this
 * sysroot, and a plain cdevsw sees only the last close of a device.  So a
 * state belongs to the opening process: its first open creates it, its
 * ioctls use it, and it is closed when the process exits (an exit hook) or
 * at the device's last close.  One process, one consumer: a second open by
 * the same process shares the state.
 *
 * Control operations: the command is decoded with kernel/bsd_ioctl.h and
 * handed to the core's marshaller, dtrace_ctl_ioctl(), with copyin/copyout;
 * sys_ioctl() has already copied the sized payload in and copies it out.
 *
 * Helper operations (USDT registration, group 'z') are recognised with
 * NetBSD's numbers and structures and answered EOPNOTSUPP: the core has no
 * helper registry yet.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/conf.h>
#include <sys/errno.h>
#include <sys/ioccom.h>
#include <sys/kauth.h>
#include <sys/kmem.h>
#include <sys/mutex.h>
#include <sys/proc.h>
#include <sys/queue.h>

#include "netbsd_impl.h"
#include "bsd_port.h"
#include "bsd_ioctl.h"

#define DTNB_MINOR_DTRACE 0
#define DTNB_MINOR_HELPER 1

/* NetBSD's dof_helper_t: the illumos fields, then the process and a
 * generation number (external/cddl/osnet/dist/uts/common/sys/dtrace.h). */
typedef struct dtnb_dof_helper {
	dof_helper_t dh_illumos;
	pid_t dh_pid;
	int dh_gen;
} dtnb_dof_helper_t;

#define DTRACEHIOC_ADD _IOWR('z', DTRACE_HCTL_ADD, dof_hdr_t)
#define DTRACEHIOC_REMOVE _IOW('z', DTRACE_HCTL_REMOVE, int)
#define DTRACEHIOC_ADDDOF _IOWR('z', DTRACE_HCTL_ADDDOF, dtnb_dof_helper_t)

typedef struct dtnb_consumer {
	LIST_ENTRY(dtnb_consumer) dn_link;
	struct proc *dn_proc;
	dtrace_state_t *dn_state;
} dtnb_consumer_t;

devmajor_t dtnb_cmajor = NODEVMAJOR;

static kmutex_t dtnb_dev_lock;
static LIST_HEAD(, dtnb_consumer) dtnb_consumers = LIST_HEAD_INITIALIZER(dtnb_consumers);
static void *dtnb_exithook;

static dev_type_open(dtnb_open);
static dev_type_close(dtnb_close);
static dev_type_ioctl(dtnb_ioctl);

static const struct cdevsw dtnb_cdevsw = {
	.d_open = dtnb_open,
	.d_close = dtnb_close,
	.d_read = noread,
	.d_write = nowrite,
	.d_ioctl = dtnb_ioctl,
	.d_stop = nostop,
	.d_tty = notty,
	.d_poll = nopoll,
	.d_mmap = nommap,
	.d_kqfilter = nokqfilter,
	.d_discard = nodiscard,
	.d_flag = D_OTHER | D_MPSAFE,
};

static dtnb_consumer_t *
dtnb_consumer_find(struct proc *p)
{
	dtnb_consumer_t *dn;

	KASSERT(mutex_owned(&dtnb_dev_lock));
	LIST_FOREACH(dn, &dtnb_consumers, dn_link)
		if (dn->dn_proc == p)
			return dn;
	return NULL;
}

static void
dtnb_consumer_close(dtnb_consumer_t *dn)
{
	LIST_REMOVE(dn, dn_link);
	dtrace_state_close(dn->dn_state);
	kmem_free(dn, sizeof(*dn));
}

static void
dtnb_exit(struct proc *p, void *arg)
{
	dtnb_consumer_t *dn;

	(void)arg;
	mutex_enter(&dtnb_dev_lock);
	if ((dn = dtnb_consumer_find(p)) != NULL)
		dtnb_consumer_close(dn);
	mutex_exit(&dtnb_dev_lock);
}

static int
dtnb_open(dev_t dev, int flags, int mode, struct lwp *l)
{
	kauth_cred_t cred = l->l_cred;
	dtnb_consumer_t *dn;
	dtrace_state_t *state;
	int err = 0;

	(void)flags;
	(void)mode;
	if (minor(dev) == DTNB_MINOR_HELPER)
		return 0;
	if (minor(dev) != DTNB_MINOR_DTRACE)
		return ENXIO;
	/* DTrace's privileges are all or nothing here: the superuser. */
	if (kauth_authorize_generic(cred, KAUTH_GENERIC_ISSUSER, NULL) != 0)
		return EPERM;
	mutex_enter(&dtnb_dev_lock);
	if (dtnb_consumer_find(l->l_proc) == NULL) {
		if ((err = dtrace_state_open(DTRACE_PRIV_ALL, kauth_cred_geteuid(cred), &state)) == 0) {
			dn = kmem_zalloc(sizeof(*dn), KM_SLEEP);
			dn->dn_proc = l->l_proc;
			dn->dn_state = state;
			LIST_INSERT_HEAD(&dtnb_consumers, dn, dn_link);
		}
	}
	mutex_exit(&dtnb_dev_lock);
	return dtrace_bsd_errno(err);
}

static int
dtnb_close(dev_t dev, int flags, int mode, struct lwp *l)
{
	(void)flags;
	(void)mode;
	(void)l;
	if (minor(dev) != DTNB_MINOR_DTRACE)
		return 0;
	/* The last close of the device: no consumer has it open. */
	mutex_enter(&dtnb_dev_lock);
	while (!LIST_EMPTY(&dtnb_consumers))
		dtnb_consumer_close(LIST_FIRST(&dtnb_consumers));
	mutex_exit(&dtnb_dev_lock);
	return 0;
}

static int
dtnb_helper_ioctl(u_long cmd)
{
	switch (cmd) {
	case DTRACEHIOC_ADD:
	case DTRACEHIOC_ADDDOF:
		return EOPNOTSUPP;
	case DTRACEHIOC_REMOVE:
		return ENOENT; /* nothing was ever added */
	default:
		return ENOTTY;
	}
}

static int
dtnb_ioctl(dev_t dev, u_long cmd, void *data, int flag, struct lwp *l)
{
	dtnb_consumer_t *dn;
	dtrace_ctl_t ctl;
	int err, rv = 0;

	(void)flag;
	if (minor(dev) == DTNB_MINOR_HELPER)
		return dtnb_helper_ioctl(cmd);
	if (!dtrace_bsd_ioctl_ctl(cmd, &ctl))
		return ENOTTY;
	/* The lock keeps the state from closing under the call; operations
	 * that wait (cross-calls) wait with it held, which costs only other
	 * consumers' opens. */
	mutex_enter(&dtnb_dev_lock);
	if ((dn = dtnb_consumer_find(l->l_proc)) == NULL)
		err = ENXIO;
	else
		err = dtrace_bsd_errno(dtrace_ctl_ioctl(dn->dn_state, ctl, DTRACE_IOCTL_SIZED, data,
						  &dtrace_bsd_uaccess, &rv));
	mutex_exit(&dtnb_dev_lock);
	return err;
}

int
dtnb_device_attach(void)
{
	devmajor_t bmajor = NODEVMAJOR;
	int err;

	mutex_init(&dtnb_dev_lock, MUTEX_DEFAULT, IPL_NONE);
	dtnb_cmajor = NODEVMAJOR;
	if ((err = devsw_attach("dtrace", NULL, &bmajor, &dtnb_cdevsw, &dtnb_cmajor)) != 0) {
		mutex_destroy(&dtnb_dev_lock);
		return err;
	}
	dtnb_exithook = exithook_establish(dtnb_exit, NULL);
	return 0;
}

int
dtnb_device_detach(void)
{
	int err;

	mutex_enter(&dtnb_dev_lock);
	err = LIST_EMPTY(&dtnb_consumers) ? 0 : EBUSY;
	mutex_exit(&dtnb_dev_lock);
	if (err != 0 || (err = devsw_detach(NULL, &dtnb_cdevsw)) != 0)
		return err;
	exithook_disestablish(dtnb_exithook);
	mutex_destroy(&dtnb_dev_lock);
	dtnb_cmajor = NODEVMAJOR;
	return 0;
}
