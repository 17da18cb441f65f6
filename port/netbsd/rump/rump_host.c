/*
 * port/netbsd/rump/rump_host.c: boot a rump kernel with the dtrace module
 * (see rump_host.h).
 *
 * The component must be loaded before rump_init(): its MODULE()
 * constructor registers the module only while the kernel is cold, and
 * rump_init() then initialises it on this thread.  Kernel symbols carry the
 * rumpns_ prefix; rump_sys_* are the rump___sysimpl_* entry points.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <ucontext.h>

#include "rump_host.h"

dtrace_rump_t dtrace_rump;

static int (*rh_mknod)(const char *, unsigned, uint64_t);
static int (*rh_mkdir)(const char *, unsigned);
static int (*rh_fault)(uintptr_t pc, uintptr_t *resume);
static const int *rh_cmajor;
static void *rh_copy; /* the first copying primitive, after the loads */
static int rh_booted; /* 0 not yet, 1 up, -1 failed */
static struct sigaction rh_old_segv, rh_old_bus;
static char rh_why[256];

/*
 * A fault in kernel code: if the module's nofault primitive took it, resume
 * at its landing pad with the address in %rax and the code in %rdx (the
 * x86_64 contract of isa/x86_64/nofault.S); otherwise it is the previous
 * handler's, or with none the default action's, which the faulting
 * instruction then meets again.
 */
static void
rh_signal(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *r = uc->uc_mcontext.gregs;
	uintptr_t addr = (uintptr_t)si->si_addr, resume;
	struct sigaction *old;
	int code;

	if (rh_fault != NULL && (code = rh_fault((uintptr_t)r[REG_RIP], &resume)) != 0) {
		/* Linux gives no address for a #GP (a non-canonical one): report
		 * where the primitive was reading, as the amd64 kernel glue does. */
		if (addr == 0)
			addr = (uintptr_t)(r[REG_RIP] >= (greg_t)(uintptr_t)rh_copy ? r[REG_RSI]
										     : r[REG_RDI]);
		r[REG_RAX] = (greg_t)addr;
		r[REG_RDX] = code;
		r[REG_RIP] = (greg_t)resume;
		return;
	}
	old = sig == SIGSEGV ? &rh_old_segv : &rh_old_bus;
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL)
		old->sa_sigaction(sig, si, ucv);
	else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN)
		old->sa_handler(sig);
	else
		(void)sigaction(sig, old, NULL);
}

static void *
rh_open_lib(const char *dir, const char *name)
{
	char path[4096];

	if (dir != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		name = path;
	}
	return dlopen(name, RTLD_NOW | RTLD_GLOBAL);
}

static void *
rh_sym(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (p == NULL && rh_why[0] == '\0')
		snprintf(rh_why, sizeof(rh_why), "rump kernel symbol %s not found", name);
	return p;
}

/* NetBSD makedev() (sys/types.h) and S_IFCHR. */
static uint64_t
rh_makedev(uint64_t maj, uint64_t min)
{
	return ((maj << 8) & 0x000fff00) | ((min << 12) & 0xfff00000) | (min & 0xff);
}

static int
rh_nodes(void)
{
	if (*rh_cmajor < 0) {
		errno = ENXIO;
		return -1;
	}
	(void)rh_mkdir("/dev/dtrace", 0755);
	if ((rh_mknod("/dev/dtrace/dtrace", 0020000 | 0600, rh_makedev(*rh_cmajor, 0)) != 0 &&
	     errno != 17 /* NetBSD EEXIST */) ||
	    (rh_mknod("/dev/dtrace/helper", 0020000 | 0666, rh_makedev(*rh_cmajor, 1)) != 0 &&
	     errno != 17))
		return -1;
	return 0;
}

int
dtrace_rump_boot(const char *libdir, const char *component, int ncpus, char *why, size_t whylen)
{
	static const char *const libs[] = {"librumpuser.so.0", "librump.so.0", "librumpvfs.so.0",
					   "librumpdev.so.0"};
	struct sigaction sa;
	int (*init)(void);
	char n[16];

	if (rh_booted == 0) {
		rh_booted = -1;
		for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
			if (rh_open_lib(libdir, libs[i]) == NULL) {
				snprintf(rh_why, sizeof(rh_why), "%s", dlerror());
				goto out;
			}
		}
		if (rh_open_lib(NULL, component) == NULL) {
			snprintf(rh_why, sizeof(rh_why), "%s", dlerror());
			goto out;
		}
		init = (int (*)(void))rh_sym("rump_init");
		dtrace_rump.open = (int (*)(const char *, int, ...))rh_sym("rump___sysimpl_open");
		dtrace_rump.close = (int (*)(int))rh_sym("rump___sysimpl_close");
		dtrace_rump.ioctl = (int (*)(int, unsigned long, ...))rh_sym("rump___sysimpl_ioctl");
		dtrace_rump.modctl = (int (*)(int, void *))rh_sym("rump___sysimpl_modctl");
		rh_mknod = (int (*)(const char *, unsigned, uint64_t))rh_sym("rump___sysimpl_mknod50");
		rh_mkdir = (int (*)(const char *, unsigned))rh_sym("rump___sysimpl_mkdir");
		rh_cmajor = (const int *)rh_sym("rumpns_dtnb_cmajor");
		rh_fault = (int (*)(uintptr_t, uintptr_t *))rh_sym("rumpns_dtrace_rump_fault");
		rh_copy = rh_sym("rumpns_isa_nofault_copy");
		if (rh_why[0] != '\0')
			goto out;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = rh_signal;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		(void)sigaction(SIGSEGV, &sa, &rh_old_segv);
		(void)sigaction(SIGBUS, &sa, &rh_old_bus);
		dtrace_rump.ncpus = ncpus > 0 ? ncpus : 2;
		snprintf(n, sizeof(n), "%d", dtrace_rump.ncpus);
		setenv("RUMP_NCPU", n, 1);
		if (init() != 0) {
			snprintf(rh_why, sizeof(rh_why), "rump_init failed");
			goto out;
		}
		if (rh_nodes() != 0) {
			snprintf(rh_why, sizeof(rh_why), "dtrace module not attached (errno %d)", errno);
			goto out;
		}
		rh_booted = 1;
	}
out:
	if (rh_booted < 0 && why != NULL)
		snprintf(why, whylen, "%s", rh_why);
	return rh_booted > 0 ? 0 : -1;
}

int
dtrace_rump_unload(void)
{
	return dtrace_rump.modctl(DTRACE_RUMP_MODCTL_UNLOAD, (void *)"dtrace");
}

int
dtrace_rump_load(void)
{
	/* struct modctl_load: file name, flags, properties. */
	struct {
		const char *ml_filename;
		int ml_flags;
		const char *ml_props;
		size_t ml_propslen;
	} ml = {"dtrace", 0x2 /* MODCTL_NO_PROP */ | 0x1 /* MODCTL_LOAD_FORCE */, NULL, 0};

	if (dtrace_rump.modctl(DTRACE_RUMP_MODCTL_LOAD, &ml) != 0)
		return -1;
	return rh_nodes();
}

int
dtrace_rump_errno(int nb)
{
	/* Below 35 NetBSD and Linux agree. */
	switch (nb) {
	case 35:
		return EAGAIN;
	case 37:
		return EALREADY;
	case 45:
	case 86:
		return EOPNOTSUPP;
	case 63:
		return ENAMETOOLONG;
	case 78:
		return ENOSYS;
	case 88:
		return EBADMSG;
	default:
		return nb < 35 ? nb : EINVAL;
	}
}
