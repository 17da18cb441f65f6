/*
 * port/netbsd/rump/rump_host.h: a NetBSD rump kernel with the dtrace
 * module, in this (Linux) process.
 *
 * Host-side code, used by libdtrace's rump backend
 * (userland/libdtrace/dt_backend_rump.c) and the rump tests.  It loads
 * the rump kernel's libraries and the module component (librumpdtrace.so,
 * built by build-component.sh) with dlopen, so nothing links against them and a
 * tree without ../shared/rump still builds; boots the kernel with N
 * virtual CPUs; makes /dev/dtrace/dtrace and /dev/dtrace/helper; and
 * routes the host signals that kernel faults become to the module's
 * nofault handler (../md_rump.c).  rump_sys_* return -1 and set errno to
 * NetBSD's number on failure.
 */
#ifndef DTRACE_RUMP_HOST_H
#define DTRACE_RUMP_HOST_H

#include <stddef.h>

/* NetBSD's ioctl encoding (sys/ioccom.h), for kernel/bsd_ioctl.h. */
#undef _IOR
#undef _IOW
#undef _IOWR
#define DTRACE_NB_IOC(inout, g, n, len)                                                            \
	((unsigned long)(inout) | (((unsigned long)(len) & 0x1fffUL) << 16) |                      \
	 ((unsigned long)(g) << 8) | (unsigned long)(n))
#define _IOR(g, n, t) DTRACE_NB_IOC(0x40000000UL, g, n, sizeof(t))
#define _IOW(g, n, t) DTRACE_NB_IOC(0x80000000UL, g, n, sizeof(t))
#define _IOWR(g, n, t) DTRACE_NB_IOC(0xc0000000UL, g, n, sizeof(t))

#define DTRACE_RUMP_O_RDWR 2	  /* NetBSD O_RDWR */
#define DTRACE_RUMP_MODCTL_LOAD 0 /* enum modctl */
#define DTRACE_RUMP_MODCTL_UNLOAD 1

typedef struct dtrace_rump {
	int (*open)(const char *path, int flags, ...);
	int (*close)(int fd);
	int (*ioctl)(int fd, unsigned long cmd, ...);
	int (*modctl)(int op, void *arg);
	int ncpus; /* virtual CPUs */
} dtrace_rump_t;

extern dtrace_rump_t dtrace_rump;

/*
 * Boot once per process: libdir holds the rump libraries (librump.so.0,
 * ...), component is librumpdtrace.so.  Returns 0, or -1 with the reason
 * in why.  Later calls return the first call's result.
 */
int dtrace_rump_boot(const char *libdir, const char *component, int ncpus, char *why,
		     size_t whylen);

/* modctl unload / forced load of the module "dtrace" (a built-in one
 * needs the force once unloaded); the load also makes the device nodes.
 * 0, or -1 with errno. */
int dtrace_rump_unload(void);
int dtrace_rump_load(void);

/* Linux's errno for one of NetBSD's. */
int dtrace_rump_errno(int nb);

#endif
