/*
 * kernel/bsd_ioctl.h: DTrace's ioctl numbers as FreeBSD and NetBSD encode
 * them, and their mapping to dtrace_ctl_t.
 *
 * Both kernels build a command from direction, group, number and the size of
 * the payload the kernel copies (<sys/ioccom.h>, the same _IOR/_IOW/_IOWR on
 * both).  The group is 'x' for the consumer's device and 'z' for the helper
 * device; the number is the dtrace_ctl_t value.  BUFSNAP, AGGSNAP, AGGDESC
 * and DOFGET are declared with a pointer payload (the consumer passes the
 * address of a pointer to its structure), and so in effect is EPROBE,
 * declared with the structure's size: the kernel copies that many bytes from
 * the consumer's pointer variable and only its first word is used (see
 * dtrace_ctl_ioctl's DTRACE_IOCTL_SIZED).  Using the OS's own macros keeps the
 * numbers right for the OS's encoding; docs/porting.md lists the LP64 values.
 *
 * Include after the kernel's <sys/ioccom.h> and core/dtrace.h.  Used by
 * port/freebsd and port/netbsd, and by the rump host (user space).
 */
#ifndef DTRACE_KERNEL_BSD_IOCTL_H
#define DTRACE_KERNEL_BSD_IOCTL_H

#define DTRACEIOC_PROVIDER _IOWR('x', 1, dtrace_providerdesc_t)
#define DTRACEIOC_PROBES _IOWR('x', 2, dtrace_probedesc_t)
#define DTRACEIOC_BUFSNAP _IOW('x', 4, dtrace_bufdesc_t *)
#define DTRACEIOC_PROBEMATCH _IOWR('x', 5, dtrace_probedesc_t)
#define DTRACEIOC_ENABLE _IOWR('x', 6, dtrace_enable_io_t)
#define DTRACEIOC_AGGSNAP _IOW('x', 7, dtrace_bufdesc_t *)
#define DTRACEIOC_EPROBE _IOW('x', 8, dtrace_eprobedesc_t)
#define DTRACEIOC_PROBEARG _IOWR('x', 9, dtrace_argdesc_t)
#define DTRACEIOC_CONF _IOR('x', 10, dtrace_conf_t)
#define DTRACEIOC_STATUS _IOR('x', 11, dtrace_status_t)
#define DTRACEIOC_GO _IOR('x', 12, int32_t)	/* processorid_t */
#define DTRACEIOC_STOP _IOWR('x', 13, int32_t) /* processorid_t */
#define DTRACEIOC_AGGDESC _IOW('x', 15, dtrace_aggdesc_t *)
#define DTRACEIOC_FORMAT _IOWR('x', 16, dtrace_fmtdesc_t)
#define DTRACEIOC_DOFGET _IOW('x', 17, dof_hdr_t *)
#define DTRACEIOC_REPLICATE _IOW('x', 18, dtrace_repldesc_t)

/* The operation an ioctl command performs; false for a command that is not
 * exactly one of DTrace's (wrong direction or size included). */
static inline bool
dtrace_bsd_ioctl_ctl(unsigned long cmd, dtrace_ctl_t *ctl)
{
	static const unsigned long cmds[] = {
		[DTRACE_CTL_PROVIDER] = DTRACEIOC_PROVIDER,
		[DTRACE_CTL_PROBES] = DTRACEIOC_PROBES,
		[DTRACE_CTL_BUFSNAP] = DTRACEIOC_BUFSNAP,
		[DTRACE_CTL_PROBEMATCH] = DTRACEIOC_PROBEMATCH,
		[DTRACE_CTL_ENABLE] = DTRACEIOC_ENABLE,
		[DTRACE_CTL_AGGSNAP] = DTRACEIOC_AGGSNAP,
		[DTRACE_CTL_EPROBE] = DTRACEIOC_EPROBE,
		[DTRACE_CTL_PROBEARG] = DTRACEIOC_PROBEARG,
		[DTRACE_CTL_CONF] = DTRACEIOC_CONF,
		[DTRACE_CTL_STATUS] = DTRACEIOC_STATUS,
		[DTRACE_CTL_GO] = DTRACEIOC_GO,
		[DTRACE_CTL_STOP] = DTRACEIOC_STOP,
		[DTRACE_CTL_AGGDESC] = DTRACEIOC_AGGDESC,
		[DTRACE_CTL_FORMAT] = DTRACEIOC_FORMAT,
		[DTRACE_CTL_DOFGET] = DTRACEIOC_DOFGET,
		[DTRACE_CTL_REPLICATE] = DTRACEIOC_REPLICATE,
	};
	unsigned long n = cmd & 0xff;

	if (n == 0 || n >= sizeof(cmds) / sizeof(cmds[0]) || cmds[n] != cmd)
		return false;
	*ctl = (dtrace_ctl_t)n;
	return true;
}

#endif /* DTRACE_KERNEL_BSD_IOCTL_H */
