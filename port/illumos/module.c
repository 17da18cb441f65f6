/*
 * port/illumos/module.c: the `dtrace` pseudo-driver: _init/_fini/_info,
 * attach/detach, and the dtrace and helper minor nodes.
 *
 * _init installs the driver; attach brings the framework up in order (the
 * core's locks, the clock, the core, the breakpoint hook, virtual time,
 * the providers: profile, syscall, sdt, then fbt and kinst) and creates the minors "dtrace" (0) and "helper" (1).
 * Every open of "dtrace" is a consumer: a core state under a clone minor
 * (2 and up) that close releases.  detach refuses while a consumer is open
 * and puts every kernel hook back as attach found it.  Opening needs the
 * privilege drv_priv() checks and grants every DTrace privilege; the finer
 * dtrace_user/dtrace_proc/dtrace_kernel privileges are not mapped yet.
 *
 * ioctl: DTrace's numbers are DTRACEIOC | n with no size; the argument is
 * the consumer's address, so dtrace_ctl_ioctl() (core/ctl_ioctl.c) copies
 * everything with ddi_copyin/ddi_copyout, which honor FKIOCTL for ioctls
 * from the kernel itself.  The helper minor accepts no command yet.
 */
#include "illumos_impl.h"

#include <sys/conf.h>
#include <sys/ddi.h>
#include <sys/errno.h>
#include <sys/file.h>
#include <sys/open.h>
#include <sys/stat.h>
#include <sys/sunddi.h>

#define ILL_DTRACEIOC 0x64747200u /* ('d' << 24) | ('t' << 16) | ('r' << 8) */
#define ILL_MINOR_DTRACE 0
#define ILL_MINOR_HELPER 1
#define ILL_MINOR_FIRST 2
#define ILL_MAXSTATES 256

static dev_info_t *ill_devi;
static kmutex_t ill_state_lock;
static dtrace_state_t *ill_states[ILL_MAXSTATES];
static int ill_saved_vtime;

static int
ill_open(dev_t *devp, int flag, int otyp, cred_t *cr)
{
	minor_t m = getminor(*devp);
	dtrace_state_t *state;
	int err;

	(void)flag;
	(void)otyp;
	if (m == ILL_MINOR_HELPER)
		return 0;
	if (m != ILL_MINOR_DTRACE)
		return ENXIO;
	if (drv_priv(cr) != 0)
		return EPERM;
	if ((err = dtrace_state_open(DTRACE_PRIV_ALL, (uint32_t)crgetuid(cr), &state)) != 0)
		return err;
	mutex_enter(&ill_state_lock);
	for (m = ILL_MINOR_FIRST; m < ILL_MAXSTATES && ill_states[m] != NULL; m++)
		;
	if (m < ILL_MAXSTATES)
		ill_states[m] = state;
	mutex_exit(&ill_state_lock);
	if (m == ILL_MAXSTATES) {
		dtrace_state_close(state);
		return EAGAIN;
	}
	*devp = makedevice(getmajor(*devp), m);
	return 0;
}

static int
ill_close(dev_t dev, int flag, int otyp, cred_t *cr)
{
	minor_t m = getminor(dev);
	dtrace_state_t *state = NULL;

	(void)flag;
	(void)otyp;
	(void)cr;
	if (m < ILL_MINOR_FIRST || m >= ILL_MAXSTATES)
		return 0;
	mutex_enter(&ill_state_lock);
	state = ill_states[m];
	ill_states[m] = NULL;
	mutex_exit(&ill_state_lock);
	if (state != NULL)
		dtrace_state_close(state);
	return 0;
}

static int
ill_copyin(void *ctx, uintptr_t usrc, void *kdst, size_t len)
{
	return ddi_copyin((void *)usrc, kdst, len, *(int *)ctx);
}

static int
ill_copyout(void *ctx, const void *ksrc, uintptr_t udst, size_t len)
{
	return ddi_copyout(ksrc, (void *)udst, len, *(int *)ctx);
}

static int
ill_ioctl(dev_t dev, int cmd, intptr_t arg, int mode, cred_t *cr, int *rv)
{
	minor_t m = getminor(dev);
	dtrace_uaccess_t ua = {ill_copyin, ill_copyout, &mode};
	dtrace_state_t *state;
	uint32_t n = (uint32_t)cmd & 0xff;

	(void)cr;
	if (m < ILL_MINOR_FIRST || m >= ILL_MAXSTATES || ((uint32_t)cmd & ~0xffu) != ILL_DTRACEIOC)
		return ENOTTY;
	if (n == 0 || n == 3 || n == 14 || n > DTRACE_CTL_REPLICATE)
		return ENOTTY;
	mutex_enter(&ill_state_lock);
	state = ill_states[m];
	mutex_exit(&ill_state_lock);
	if (state == NULL)
		return ENXIO;
	return dtrace_ctl_ioctl(state, (dtrace_ctl_t)n, DTRACE_IOCTL_UADDR, (void *)arg, &ua, rv);
}

static int
ill_unregister_providers(void)
{
	int err;

	if ((err = ill_inst_fini()) != 0)
		return err;
	if ((err = ill_sdt_fini()) != 0) {
		ill_inst_init();
		return err;
	}
	if ((err = ill_syscall_fini()) != 0) {
		ill_sdt_init();
		ill_inst_init();
		return err;
	}
	if ((err = ill_profile_fini()) != 0) {
		ill_syscall_init();
		ill_sdt_init();
		ill_inst_init();
		return err;
	}
	return 0;
}

static int
ill_attach(dev_info_t *devi, ddi_attach_cmd_t cmd)
{
	int err;

	if (cmd == DDI_RESUME)
		return DDI_SUCCESS;
	if (cmd != DDI_ATTACH || ill_devi != NULL)
		return DDI_FAILURE;
	ill_locks_init();
	mutex_init(&ill_state_lock, NULL, MUTEX_DEFAULT, NULL);
	if ((err = ill_time_init()) != 0 || (err = dtrace_init()) != 0)
		goto fail_locks;
	ill_trap_init();
	ill_saved_vtime = dtrace_vtime_active;
	dtrace_vtime_active = 1;
	if (ill_profile_init() != 0)
		goto fail_core;
	if (ill_syscall_init() != 0)
		goto fail_profile;
	if (ill_sdt_init() != 0)
		goto fail_syscall;
	if (ill_inst_init() != 0)
		goto fail_sdt;
	if (ddi_create_minor_node(devi, "dtrace", S_IFCHR, ILL_MINOR_DTRACE, DDI_PSEUDO, 0) !=
		    DDI_SUCCESS ||
	    ddi_create_minor_node(devi, "helper", S_IFCHR, ILL_MINOR_HELPER, DDI_PSEUDO, 0) !=
		    DDI_SUCCESS) {
		ddi_remove_minor_node(devi, NULL);
		goto fail_inst;
	}
	ddi_report_dev(devi);
	ill_devi = devi;
	return DDI_SUCCESS;

fail_inst:
	ill_inst_fini();
fail_sdt:
	ill_sdt_fini();
fail_syscall:
	ill_syscall_fini();
fail_profile:
	ill_profile_fini();
fail_core:
	dtrace_vtime_active = ill_saved_vtime;
	ill_trap_fini();
	dtrace_fini();
fail_locks:
	mutex_destroy(&ill_state_lock);
	ill_locks_fini();
	return DDI_FAILURE;
}

static int
ill_detach(dev_info_t *devi, ddi_detach_cmd_t cmd)
{
	if (cmd == DDI_SUSPEND)
		return DDI_SUCCESS;
	if (cmd != DDI_DETACH || ill_unregister_providers() != 0)
		return DDI_FAILURE;
	if (dtrace_fini() != 0) {
		ill_profile_init();
		ill_syscall_init();
		ill_sdt_init();
		ill_inst_init();
		return DDI_FAILURE;
	}
	dtrace_vtime_active = ill_saved_vtime;
	ill_trap_fini();
	ddi_remove_minor_node(devi, NULL);
	mutex_destroy(&ill_state_lock);
	ill_locks_fini();
	ill_devi = NULL;
	return DDI_SUCCESS;
}

static int
ill_getinfo(dev_info_t *dip, ddi_info_cmd_t cmd, void *arg, void **result)
{
	(void)dip;
	(void)arg;
	switch (cmd) {
	case DDI_INFO_DEVT2DEVINFO:
		*result = ill_devi;
		return DDI_SUCCESS;
	case DDI_INFO_DEVT2INSTANCE:
		*result = (void *)0;
		return DDI_SUCCESS;
	default:
		return DDI_FAILURE;
	}
}

static struct cb_ops ill_cb_ops = {
	.cb_open = ill_open,
	.cb_close = ill_close,
	.cb_strategy = nulldev,
	.cb_print = nulldev,
	.cb_dump = nodev,
	.cb_read = nodev,
	.cb_write = nodev,
	.cb_ioctl = ill_ioctl,
	.cb_devmap = nodev,
	.cb_mmap = nodev,
	.cb_segmap = nodev,
	.cb_chpoll = nochpoll,
	.cb_prop_op = ddi_prop_op,
	.cb_str = NULL,
	.cb_flag = D_NEW | D_MP,
};

static struct dev_ops ill_dev_ops = {
	.devo_rev = DEVO_REV,
	.devo_getinfo = ill_getinfo,
	.devo_identify = nulldev,
	.devo_probe = nulldev,
	.devo_attach = ill_attach,
	.devo_detach = ill_detach,
	.devo_reset = nodev,
	.devo_cb_ops = &ill_cb_ops,
};

static struct modldrv ill_modldrv = {&mod_driverops, "Portable DTrace", &ill_dev_ops};
static struct modlinkage ill_modlinkage = {MODREV_1, {&ill_modldrv, NULL}};

int
_init(void)
{
	return mod_install(&ill_modlinkage);
}

int
_info(struct modinfo *mi)
{
	return mod_info(&ill_modlinkage, mi);
}

int
_fini(void)
{
	return mod_remove(&ill_modlinkage);
}
