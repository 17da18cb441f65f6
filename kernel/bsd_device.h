/*
 * kernel/bsd_device.h: what the FreeBSD and NetBSD ioctl entry points both
 * pass the core's marshaller (dtrace_ctl_ioctl): user access through
 * copyin(9)/copyout(9), whose signatures the two kernels share, and the
 * core's error numbers in the kernel's errno (the few core/port.h numbers
 * that differ between systems, EALREADY, EBADMSG and ENOTSUP, named with
 * the kernel's own <sys/errno.h>).
 *
 * Include in the kernel only, after <sys/systm.h>, <sys/errno.h> and
 * core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_BSD_DEVICE_H
#define DTRACE_KERNEL_BSD_DEVICE_H

static inline int
dtrace_bsd_copyin(void *ctx, uintptr_t usrc, void *kdst, size_t len)
{
	(void)ctx;
	return copyin((const void *)usrc, kdst, len);
}

static inline int
dtrace_bsd_copyout(void *ctx, const void *ksrc, uintptr_t udst, size_t len)
{
	(void)ctx;
	return copyout(ksrc, (void *)udst, len);
}

static const dtrace_uaccess_t dtrace_bsd_uaccess = {dtrace_bsd_copyin, dtrace_bsd_copyout, NULL};

/* A core error number (core/port.h DTRACE_E*) as the kernel's errno. */
static inline int
dtrace_bsd_errno(int err)
{
	switch (err) {
	case DTRACE_EALREADY:
		return EALREADY;
	case DTRACE_ENOTSUP:
		return EOPNOTSUPP;
	case DTRACE_EBADMSG:
		return EBADMSG;
	default:
		return err; /* the rest are the same numbers everywhere */
	}
}

#endif /* DTRACE_KERNEL_BSD_DEVICE_H */
