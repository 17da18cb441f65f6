/*
 * kernel/bsd_port.h: what the FreeBSD and NetBSD ports do alike with the
 * same kernel names, written once.
 *
 *  - For the ioctl entry points: user access through copyin(9)/copyout(9)
 *    (dtrace_bsd_uaccess, for dtrace_ctl_ioctl) and the core's error
 *    numbers in the kernel's errno (dtrace_bsd_errno: the few core/port.h
 *    numbers that differ between systems, EALREADY, EBADMSG and ENOTSUP,
 *    named with the kernel's own <sys/errno.h>).
 *  - port.h functions: the log (printf), panic, getmajor()/getminor()
 *    (major()/minor() of the kernel's dev_t) and progenyof() (the p_pptr
 *    chain from curproc; bounded, for probe context, in case the chain
 *    changes under it).
 *
 * Include in the kernel only, in exactly one file of the port (its
 * device.c), after <sys/param.h>, <sys/systm.h>, <sys/errno.h>,
 * <sys/proc.h> and core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_BSD_PORT_H
#define DTRACE_KERNEL_BSD_PORT_H

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

void
dtrace_port_log(const char *fmt, va_list ap)
{
	printf("dtrace: ");
	vprintf(fmt, ap);
	printf("\n");
}

void
dtrace_port_panic(const char *msg)
{
	panic("dtrace: %s", msg);
}

uint64_t
dtrace_port_dev_major(uint64_t dev)
{
	return (uint64_t)(unsigned int)major((dev_t)dev);
}

uint64_t
dtrace_port_dev_minor(uint64_t dev)
{
	return (uint64_t)(unsigned int)minor((dev_t)dev);
}

int
dtrace_port_curproc_progenyof(uint64_t pid)
{
	struct proc *p = curproc, *parent;

	for (int i = 0; p != NULL && i < 100000; i++) {
		if ((uint64_t)p->p_pid == pid)
			return 1;
		if ((parent = p->p_pptr) == p)
			break;
		p = parent;
	}
	return pid == 0;
}

#endif /* DTRACE_KERNEL_BSD_PORT_H */
