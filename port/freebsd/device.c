/*
 * port/freebsd/device.c: /dev/dtrace/dtrace and /dev/dtrace/helper.
 *
 * Each open of dtrace is a consumer: a core state attached to the file with
 * devfs_set_cdevpriv and closed by its destructor when the last reference
 * goes.  The node is root's with mode 0600, as FreeBSD's, and every opener
 * gets every DTrace privilege (FreeBSD's dtrace_cred2priv grants all to
 * anyone allowed to open it), with its effective uid.
 *
 * ioctl: the kernel has already copied the sized payload in (and copies it
 * back out for _IOR/_IOWR); kernel/bsd_ioctl.h turns the command into a
 * dtrace_ctl_t and dtrace_ctl_ioctl() (core/ctl_ioctl.c) copies everything
 * the payload points to with copyin(9)/copyout(9).  The helper node accepts
 * no command yet (USDT helpers need the pid provider): ENOTTY.
 */
#include "freebsd_impl.h"

#include <sys/conf.h>
#include <sys/fcntl.h>
#include <sys/ioccom.h>
#include <sys/ucred.h>

#include "bsd_port.h"
#include "bsd_ioctl.h"

static struct cdev *fbsd_dev_dtrace, *fbsd_dev_helper;

static void
fbsd_state_dtor(void *data)
{
	dtrace_state_close(data);
}

static int
fbsd_dtrace_open(struct cdev *dev, int oflags, int devtype, struct thread *td)
{
	dtrace_state_t *state;
	int err;

	(void)dev;
	(void)oflags;
	(void)devtype;
	if ((err = dtrace_state_open(DTRACE_PRIV_ALL, td->td_ucred->cr_uid, &state)) != 0)
		return dtrace_bsd_errno(err);
	if ((err = devfs_set_cdevpriv(state, fbsd_state_dtor)) != 0)
		dtrace_state_close(state);
	return err;
}

static int
fbsd_dtrace_ioctl(struct cdev *dev, u_long cmd, caddr_t addr, int flags, struct thread *td)
{
	dtrace_state_t *state;
	dtrace_ctl_t ctl;
	int err;

	(void)dev;
	(void)flags;
	(void)td;
	if ((err = devfs_get_cdevpriv((void **)&state)) != 0)
		return err;
	if (!dtrace_bsd_ioctl_ctl(cmd, &ctl))
		return ENOTTY;
	return dtrace_bsd_errno(
	    dtrace_ctl_ioctl(state, ctl, DTRACE_IOCTL_SIZED, addr, &dtrace_bsd_uaccess, NULL));
}

static int
fbsd_helper_ioctl(struct cdev *dev, u_long cmd, caddr_t addr, int flags, struct thread *td)
{
	(void)dev;
	(void)cmd;
	(void)addr;
	(void)flags;
	(void)td;
	return ENOTTY;
}

static struct cdevsw fbsd_dtrace_cdevsw = {
	.d_version = D_VERSION,
	.d_open = fbsd_dtrace_open,
	.d_ioctl = fbsd_dtrace_ioctl,
	.d_name = "dtrace",
};

static struct cdevsw fbsd_helper_cdevsw = {
	.d_version = D_VERSION,
	.d_ioctl = fbsd_helper_ioctl,
	.d_name = "helper",
};

static int
fbsd_make_dev(struct cdevsw *sw, const char *name, int mode, struct cdev **devp)
{
	struct make_dev_args args;

	make_dev_args_init(&args);
	args.mda_devsw = sw;
	args.mda_uid = UID_ROOT;
	args.mda_gid = GID_WHEEL;
	args.mda_mode = mode;
	return make_dev_s(&args, devp, "%s", name);
}

int
fbsd_dev_init(void)
{
	int err;

	if ((err = fbsd_make_dev(&fbsd_dtrace_cdevsw, "dtrace/dtrace", 0600, &fbsd_dev_dtrace)) != 0)
		return err;
	if ((err = fbsd_make_dev(&fbsd_helper_cdevsw, "dtrace/helper", 0660, &fbsd_dev_helper)) != 0) {
		destroy_dev(fbsd_dev_dtrace);
		return err;
	}
	return 0;
}

/* destroy_dev waits for threads inside the device's methods; open states
 * keep the module busy through dtrace_fini's EBUSY (module.c). */
int
fbsd_dev_fini(void)
{
	destroy_dev(fbsd_dev_helper);
	destroy_dev(fbsd_dev_dtrace);
	return 0;
}
