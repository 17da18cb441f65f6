/*
 * port/linux/agent_syscall.c: the syscall provider inside a traced
 * process (the consumer's half is syscall.c).
 *
 * The process's system calls are trapped by seccomp filters the agent
 * installs (SECCOMP_RET_TRAP: the call is not made, the thread gets
 * SIGSYS).  The handler fires the call's entry probe, makes the call
 * itself from the agent's own system call instruction (the filters let
 * calls from there through, by seccomp_data.instruction_pointer), puts
 * the result where the program expects it, fires the return probe with
 * errno set, and returns: the program goes on as if it had made the call.
 *
 * A filter traps only the numbers some enabling named and only calls
 * made from the text of the objects loaded when it was installed; the
 * agent's own text is never among them, nor is text at a fixed address
 * (a non-PIE executable).  Filters cannot be removed, only added: a
 * number stays trapped once traced, and the handler then makes the call
 * without firing anything; a new number or a newly loaded object adds a
 * filter for what is new.  This is why exec is safe: the new image keeps
 * the filters but not the handler, and its text lies elsewhere (which is
 * why the agent refuses when address-space randomization is off: the new
 * image's libc could then be where the old one was).
 *
 * Never trapped, because the thread must make them itself: rt_sigreturn,
 * restart_syscall, vfork, clone3 and clone with CLONE_VM (the new thread
 * or vfork child would start in the agent's instruction, on a stack it
 * knows nothing of).  A clone without CLONE_VM (fork) is made from the
 * handler: the child returns through its copy of it and fires nothing;
 * nor do a vfork child's calls before its exec (it runs on the parent's
 * memory, thread caches and all: the handler tells it by its pid, one
 * getpid per traced call).  Calls whose effect the handler would otherwise undo are carried out on
 * the interrupted context instead: rt_sigprocmask changes the mask the
 * thread returns to, and rt_sigaction of SIGSYS records the program's
 * wish (its handler is called for SIGSYS that is not ours) and keeps
 * ours, which the filters need.
 *
 * SIGSYS must never be blocked where a trapped call can be made: the
 * kernel forces a seccomp SIGSYS on a thread that blocks it by resetting
 * the process's handler to the default, which kills it.  So from the
 * first filter on rt_sigprocmask and rt_sigaction are always trapped and
 * SIGSYS is taken out of every mask they set, the handlers already
 * installed lose SIGSYS from their masks, the agent's thread unblocks it,
 * and the agent refuses (EBUSY in the table's status) when another thread
 * already blocks it.
 *
 * The same filters keep breakpoints safe (the guard, asked for in the
 * block's lab_guard before the consumer places the process's first
 * breakpoint, the loader hook, when the process arrives): the kernel forces a breakpoint's SIGTRAP on a thread that
 * blocks it just as it forces SIGSYS, so SIGTRAP is kept out of every mask
 * with SIGSYS, and rt_sigaction of SIGTRAP records the program's wish in
 * trap.c, which calls it for a SIGTRAP that is not ours.  A vfork child
 * (posix_spawn's resets every handler it finds with its signals blocked)
 * is told its rt_sigaction of either succeeded and changes nothing: the
 * records are its parent's and it still needs the handlers.  With no
 * syscall probe, the filters trap only those two calls.
 *
 * After the consumer is gone (or in a forked child, or once tracing is
 * over) the filters stay and the handler goes on making the trapped calls
 * untraced.  The agent's own threads never fire, nor do calls made in
 * probe context or by the agent's other handlers (the port's own work for
 * a probe).  The handler runs with
 * the interrupted thread's signal mask (SA_NODEFER, nothing added), so
 * calls it makes see the mask the program had.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent_proto.h"
#include "agent_sysisa.h"
#include "dtrace.h"
#include "linux_impl.h"

/* SECCOMP_RET_DATA of our filters' traps, in si_errno: another filter's
 * SIGSYS (the program's own) is not ours. */
#define SYS_TRAP_DATA 0x0d7a
#define SYS_SECCOMP_CODE 1 /* si_code of a seccomp trap (the kernel's SYS_SECCOMP) */
#define SYS_SIGBIT(sig) (1ULL << ((sig) - 1)) /* in a kernel sigset */
#define SYS_SIGSYS_BIT SYS_SIGBIT(SIGSYS)
/* Never blocked while filters are installed: SIGSYS (their traps) and
 * SIGTRAP (the breakpoints). */
#define SYS_KEEP_BITS (SYS_SIGBIT(SIGSYS) | SYS_SIGBIT(SIGTRAP))
#define SYS_MAXRANGES 128
#define SYS_MAXINSNS 8192     /* one filter */
#define SYS_INSN_BUDGET 30000 /* all of ours, under the kernel's 32768 */
#define SYS_CHUNK 200         /* jeq's that reach one stub (8-bit jumps) */

typedef linux_ksigaction_t sys_ksigaction_t;

typedef struct sys_range {
	uintptr_t lo, hi;
} sys_range_t;

/* What the installed filters trap: numbers and text ranges, each only
 * ever growing.  Changed under sys_lock. */
static uint8_t sys_trapped[LINUX_AGENT_MAXSYS / 8];
static sys_range_t sys_ranges[SYS_MAXRANGES];
static unsigned sys_nranges, sys_insns;
static struct sock_filter sys_prog[SYS_MAXINSNS];
static int sys_lock;

static linux_agent_sys_t *volatile sys_table; /* the consumer's, while tracing */
static long sys_pid;          /* the traced process's: a vfork child shares our memory, not it */
static volatile int sys_live; /* fire probes */
static volatile int sys_handler_on;
static sys_ksigaction_t sys_prev; /* what the program has for SIGSYS */
static LINUX_TLS int sys_agent_thread;

static bool
bit_get(const uint8_t *set, unsigned n)
{
	return n < LINUX_AGENT_MAXSYS && (set[n / 8] >> (n % 8) & 1) != 0;
}

static void
bit_set(uint8_t *set, unsigned n)
{
	if (n < LINUX_AGENT_MAXSYS)
		set[n / 8] |= (uint8_t)(1U << (n % 8));
}

/* The calls a thread must make itself (see above). */
static bool
sys_never(unsigned nr)
{
	switch (nr) {
	case SYS_rt_sigreturn:
	case SYS_restart_syscall:
#ifdef SYS_vfork
	case SYS_vfork:
#endif
#ifdef SYS_clone3
	case SYS_clone3:
#endif
		return true;
	default:
		return false;
	}
}

static long
raw(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	return linux_agent_sysgadget(nr, a0, a1, a2, a3, a4, a5);
}

/* ---- The handler (probe context) ---------------------------------------- */

static void
sys_chain(int sig, siginfo_t *si, void *ctx)
{
	sys_ksigaction_t prev = sys_prev;
	sys_ksigaction_t dfl;

	if (prev.ks_handler == (void *)SIG_IGN)
		return;
	if (prev.ks_handler != (void *)SIG_DFL) {
		if (prev.ks_flags & SA_SIGINFO)
			((void (*)(int, siginfo_t *, void *))prev.ks_handler)(sig, si, ctx);
		else
			((void (*)(int))prev.ks_handler)(sig);
		return;
	}
	/* The default action (a core dump) for a SIGSYS that is not ours:
	 * let it happen, as it would have without us. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.ks_handler = (void *)SIG_DFL;
	(void)raw(SYS_rt_sigaction, SIGSYS, (long)&dfl, 0, 8, 0, 0);
	(void)raw(SYS_tgkill, linux_self_pid(), linux_self_tid(), SIGSYS, 0, 0, 0);
}

static bool
user_read(void *dst, uintptr_t src, size_t len)
{
	return src != 0 && isa_nofault_copy(dst, src, len).fault == 0;
}

static bool
user_write(uintptr_t dst, const void *src, size_t len)
{
	return dst != 0 && isa_nofault_copy((void *)dst, (uintptr_t)src, len).fault == 0;
}

/* rt_sigprocmask on the mask the thread returns to. */
static long
sys_sigprocmask(const long *a, ucontext_t *uc)
{
	uint64_t cur, set, unmaskable = (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1));

	if (a[3] != 8)
		return -EINVAL;
	memcpy(&cur, &uc->uc_sigmask, sizeof(cur));
	if (a[1] != 0) {
		if (!user_read(&set, (uintptr_t)a[1], sizeof(set)))
			return -EFAULT;
		if (a[0] == SIG_BLOCK)
			set = cur | set;
		else if (a[0] == SIG_UNBLOCK)
			set = cur & ~set;
		else if (a[0] != SIG_SETMASK)
			return -EINVAL;
	}
	if (a[2] != 0 && !user_write((uintptr_t)a[2], &cur, sizeof(cur)))
		return -EFAULT;
	if (a[1] != 0) {
		set &= ~(unmaskable | SYS_KEEP_BITS);
		memcpy(&uc->uc_sigmask, &set, sizeof(set));
	}
	return 0;
}

/*
 * rt_sigaction: SIGSYS and SIGTRAP never blocked by a handler's mask; of
 * SIGSYS and SIGTRAP themselves, the program's wish is recorded (here and
 * in trap.c) and ours stays.  A vfork child (posix_spawn's resets the
 * handlers before its exec) shares our memory but not our handlers: what
 * it asks changes neither the records, which are the parent's, nor the
 * handler, which it needs for the breakpoints and filters of the parent's
 * text it runs until its exec; it is told it succeeded.
 */
static long
sys_sigaction(const long *a)
{
	sys_ksigaction_t act, old;
	bool trap = a[0] == SIGTRAP && linux_trap_installed();

	if (a[3] != 8)
		return -EINVAL;
	if (a[1] != 0 && !user_read(&act, (uintptr_t)a[1], sizeof(act)))
		return -EFAULT;
	if (a[0] != SIGSYS && !trap) {
		if (a[1] == 0)
			return raw(SYS_rt_sigaction, a[0], 0, a[2], a[3], 0, 0);
		act.ks_mask &= ~SYS_KEEP_BITS;
		return raw(SYS_rt_sigaction, a[0], (long)&act, a[2], a[3], 0, 0);
	}
	if (trap)
		linux_trap_previous_get(&old);
	else
		old = sys_prev;
	if (a[2] != 0 && !user_write((uintptr_t)a[2], &old, sizeof(old)))
		return -EFAULT;
	if (a[1] == 0 || raw(SYS_getpid, 0, 0, 0, 0, 0, 0) != sys_pid)
		return 0;
	if (trap)
		linux_trap_previous_set(&act);
	else
		sys_prev = act;
	return 0;
}

/*
 * Was the call made for the agent, through a libc wrapper it called (the
 * port caching a thread's ids in a breakpoint's handler, before probe
 * context)?  The wrappers that make such calls are leaves, with their
 * caller's return address on top of the stack.
 */
static bool
sys_from_agent(const isa_regs_t *regs)
{
	isa_nofault_result_t r = isa_nofault_load64((uintptr_t)isa_regs_sp(regs));

	return r.fault == 0 && linux_agent_own_text((uintptr_t)r.value);
}

static void
sys_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	const isa_regs_t *outer = linux_trap_regs;
	linux_agent_sys_t *t;
	int *ep = linux_errno(), saved = *ep;
	uint32_t eid = 0, rid = 0;
	isa_regs_t regs;
	unsigned nr;
	long a[6], rv;
	bool forked = false;

	if (si->si_code != SYS_SECCOMP_CODE || si->si_errno != SYS_TRAP_DATA) {
		sys_chain(sig, si, ctx);
		*ep = saved;
		return;
	}
	/* The nofault loads below must be able to fault (see trap.c). */
	{
		uint64_t blocked, faults = SYS_SIGBIT(SIGSEGV) | SYS_SIGBIT(SIGBUS);

		memcpy(&blocked, &uc->uc_sigmask, sizeof(blocked));
		if ((blocked & faults) != 0)
			(void)raw(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&faults, 0, 8, 0, 0);
	}
	linux_mcontext_to_regs(uc, &regs);
	nr = (unsigned)si->si_syscall;
	for (int i = 0; i < 6; i++)
		a[i] = (long)regs.r[linux_sys_arg_regs[i]];
	t = sys_table;
	if (sys_live && !sys_agent_thread && !linux_slots_in_probe() && !sys_from_agent(&regs) &&
	    !linux_agent_own_stack((uintptr_t)isa_regs_sp(&regs)) && t != NULL &&
	    nr < LINUX_AGENT_MAXSYS) {
		eid = t->las_entry[nr];
		rid = t->las_return[nr];
		/* A vfork (posix_spawn) child runs on our memory, thread
		 * caches and all, until it execs: its calls are not ours. */
		if ((eid != 0 || rid != 0) && raw(SYS_getpid, 0, 0, 0, 0, 0, 0) != sys_pid)
			eid = rid = 0;
	}
	if (eid != 0) {
		linux_trap_regs = &regs;
		dtrace_probe(eid, (uint64_t)a[0], (uint64_t)a[1], (uint64_t)a[2], (uint64_t)a[3],
		             (uint64_t)a[4]);
		linux_trap_regs = outer;
	}
	if (nr == SYS_rt_sigprocmask)
		rv = sys_sigprocmask(a, uc);
	else if (nr == SYS_rt_sigaction)
		rv = sys_sigaction(a);
	else
		rv = raw(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#ifdef SYS_fork
	forked = nr == SYS_fork;
#endif
	forked = forked || nr == SYS_clone;
	regs.r[linux_sys_ret_reg] = (uint64_t)rv;
	linux_regs_to_mcontext(&regs, uc);
	/* a fork's child returns here too: it runs untraced */
	if (rid != 0 && !(forked && rv == 0)) {
		bool failed = rv < 0 && rv >= -4095;
		uint64_t v = failed ? (uint64_t)-1 : (uint64_t)rv;

		*ep = failed ? (int)-rv : 0;
		linux_trap_regs = &regs;
		dtrace_probe(rid, v, v, 0, 0, 0);
		linux_trap_regs = outer;
	}
	*ep = saved;
}

/* ---- Filters ------------------------------------------------------------ */

#define SD_NR offsetof(struct seccomp_data, nr)
#define SD_ARCH offsetof(struct seccomp_data, arch)
#define SD_IPLO offsetof(struct seccomp_data, instruction_pointer)
#define SD_IPHI (offsetof(struct seccomp_data, instruction_pointer) + 4)
#define SD_ARG0LO offsetof(struct seccomp_data, args)

static unsigned sys_n;

static bool
emit(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (sys_n >= SYS_MAXINSNS)
		return false;
	sys_prog[sys_n].code = code;
	sys_prog[sys_n].jt = jt;
	sys_prog[sys_n].jf = jf;
	sys_prog[sys_n].k = k;
	sys_n++;
	return true;
}

/*
 * A filter trapping the numbers in `set` when made from one of the ranges:
 *   not our architecture, or a foreign-ABI number: allow
 *   clone with CLONE_VM: allow
 *   the number is in the set (runs of jeq, each run ending at a stub that
 *   jumps on with a 32-bit offset): else allow
 *   the instruction pointer is in a range: trap, else allow
 * Returns the length, 0 if it does not fit.
 */
static unsigned
sys_build(const uint8_t *set, const sys_range_t *ranges, unsigned nranges)
{
	unsigned stubs[LINUX_AGENT_MAXSYS / SYS_CHUNK + 2], nstubs = 0, inrun = 0, in, i;
	bool ok = true;

	sys_n = 0;
	ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_ARCH, 0, 0);
	ok &= emit(BPF_JMP | BPF_JEQ | BPF_K, linux_sys_audit_arch, 1, 0);
	ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_NR, 0, 0);
	if (linux_sys_foreign_bit != 0) {
		ok &= emit(BPF_JMP | BPF_JSET | BPF_K, linux_sys_foreign_bit, 0, 1);
		ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	}
	if (bit_get(set, SYS_clone)) {
		ok &= emit(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3);
		ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_ARG0LO, 0, 0);
		ok &= emit(BPF_JMP | BPF_JSET | BPF_K, CLONE_VM, 0, 1);
		ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
		ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_NR, 0, 0);
	}
	/* runs of jeq n, stub: the stub's position is known at its run's end,
	 * so each jeq's true offset is patched then */
	for (i = 0; i < LINUX_AGENT_MAXSYS && ok; i++) {
		if (!bit_get(set, i))
			continue;
		ok &= emit(BPF_JMP | BPF_JEQ | BPF_K, i, 0, 0);
		if (++inrun == SYS_CHUNK) {
			for (unsigned j = sys_n - inrun; j < sys_n; j++)
				sys_prog[j].jt = (uint8_t)(sys_n + 1 - (j + 1));
			ok &= emit(BPF_JMP | BPF_JA, 1, 0, 0); /* past the stub */
			stubs[nstubs++] = sys_n;
			ok &= emit(BPF_JMP | BPF_JA, 0, 0, 0); /* to `in`, below */
			inrun = 0;
		}
	}
	if (inrun > 0 && ok) {
		for (unsigned j = sys_n - inrun; j < sys_n; j++)
			sys_prog[j].jt = (uint8_t)(sys_n + 1 - (j + 1));
		ok &= emit(BPF_JMP | BPF_JA, 1, 0, 0);
		stubs[nstubs++] = sys_n;
		ok &= emit(BPF_JMP | BPF_JA, 0, 0, 0);
	}
	ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	in = sys_n;
	for (i = 0; i < nstubs; i++)
		sys_prog[stubs[i]].k = in - (stubs[i] + 1);
	for (i = 0; i < nranges && ok; i++) {
		uint32_t hi = (uint32_t)(ranges[i].lo >> 32), lo = (uint32_t)ranges[i].lo;
		uint32_t end = (ranges[i].hi >> 32) != hi ? 0xffffffffU : (uint32_t)ranges[i].hi;

		ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_IPHI, 0, 0);
		ok &= emit(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 4);
		ok &= emit(BPF_LD | BPF_W | BPF_ABS, SD_IPLO, 0, 0);
		ok &= emit(BPF_JMP | BPF_JGE | BPF_K, lo, 0, 2);
		ok &= emit(BPF_JMP | BPF_JGE | BPF_K, end, 1, 0);
		ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_TRAP | SYS_TRAP_DATA, 0, 0);
	}
	ok &= emit(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	return ok ? sys_n : 0;
}

static int
sys_install(unsigned len)
{
	struct sock_fprog prog = {(unsigned short)len, sys_prog};
	long rv;

	if (sys_insns + len + 4 > SYS_INSN_BUDGET)
		return ENOSPC;
	rv = raw(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, (long)&prog, 0, 0,
	         0);
	if (rv == -EACCES) {
		/* Without CAP_SYS_ADMIN a filter needs no_new_privs, which
		 * stays: the process can no longer gain privileges by exec. */
		if (raw(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0) != 0)
			return EACCES;
		rv = raw(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
		         (long)&prog, 0, 0, 0);
	}
	if (rv != 0)
		return rv < 0 ? (int)-rv : EBUSY; /* > 0: a thread could not be synced */
	sys_insns += len + 4;
	return 0;
}

/* ---- Text ranges -------------------------------------------------------- */

typedef struct sys_scan {
	sys_range_t sc_r[SYS_MAXRANGES];
	unsigned sc_n;
} sys_scan_t;

static int
sys_scan_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	sys_scan_t *sc = arg;
	uintptr_t self = (uintptr_t)linux_agent_sysgadget;

	(void)size;
	/* an executable linked at a fixed address (its bias 0 and its name
	 * empty) would be there again after an exec of the same file */
	if (info->dlpi_addr == 0 && (info->dlpi_name == NULL || info->dlpi_name[0] == '\0'))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (self >= lo && self < hi)
			return 0; /* the agent: its calls are never trapped */
		if (sc->sc_n < SYS_MAXRANGES) {
			sc->sc_r[sc->sc_n].lo = lo;
			sc->sc_r[sc->sc_n].hi = hi;
			sc->sc_n++;
		}
	}
	return 0;
}

static bool
range_known(const sys_range_t *r)
{
	for (unsigned i = 0; i < sys_nranges; i++)
		if (sys_ranges[i].lo == r->lo && sys_ranges[i].hi == r->hi)
			return true;
	return false;
}

/* Can this system trap with seccomp at all?  Asked first, so a system
 * without filters (a kernel built without them; qemu-user, which does not
 * give them to its guests) says so (ENOSYS) rather than why it would
 * refuse otherwise. */
static int
sys_seccomp_avail(void)
{
	uint32_t action = SECCOMP_RET_TRAP;
	long rv = raw(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, (long)&action, 0, 0, 0);

	return rv == 0 ? 0 : ENOSYS;
}

/* Is the address space randomized?  Without it a new image after exec
 * could have text where the filters trap and no handler to take it. */
static int
sys_aslr(void)
{
	char c = '2';
	int fd;

	if ((raw(SYS_personality, 0xffffffff, 0, 0, 0, 0, 0) & ADDR_NO_RANDOMIZE) != 0)
		return EPERM;
	if ((fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY | O_CLOEXEC)) >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '2';
		close(fd);
	}
	return c == '0' ? EPERM : 0;
}

/*
 * Before the first filter: no handler's mask may hold SIGSYS (a trapped
 * call in that handler would be fatal), nor may any thread block it; the
 * calling thread unblocks it, others that block it make us refuse.
 */
/* EBUSY if a thread of the process blocks SIGSYS. */
static int
sys_threads_block_sigsys(void)
{
	char path[300], line[256];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if ((d = opendir("/proc/self/task")) == NULL)
		return 0;
	while (err == 0 && (de = readdir(d)) != NULL) {
		FILE *f;
		unsigned long long blk;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", de->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "SigBlk: %llx", &blk) == 1 && (blk & SYS_SIGSYS_BIT) != 0)
				err = EBUSY;
		fclose(f);
	}
	closedir(d);
	return err;
}

static int
sys_unblockable(void)
{
	uint64_t unblock = SYS_KEEP_BITS;
	sys_ksigaction_t ka;
	int err = 0;

	for (int sig = 1; sig < 65; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGSYS ||
		    raw(SYS_rt_sigaction, sig, 0, (long)&ka, 8, 0, 0) != 0)
			continue;
		if ((ka.ks_mask & SYS_KEEP_BITS) == 0 || ka.ks_handler == (void *)SIG_DFL ||
		    ka.ks_handler == (void *)SIG_IGN)
			continue;
		ka.ks_mask &= ~SYS_KEEP_BITS;
		(void)raw(SYS_rt_sigaction, sig, (long)&ka, 0, 8, 0, 0);
	}
	/* (a raw call: rt_sigprocmask may be trapped already) */
	(void)raw(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&unblock, 0, 8, 0, 0);
	/* A thread being created has every signal blocked for a moment (as
	 * glibc starts it): look again for a while before refusing. */
	for (int tries = 0; tries < 40; tries++) {
		struct timespec ms5 = {0, 5000000};

		if ((err = sys_threads_block_sigsys()) != EBUSY)
			break;
		nanosleep(&ms5, NULL);
	}
	return err;
}

static int
sys_handler_install(void)
{
	struct sigaction sa;
	sys_ksigaction_t prev;

	if (sys_handler_on)
		return 0;
	if (raw(SYS_rt_sigaction, SIGSYS, 0, (long)&prev, 8, 0, 0) != 0)
		return EINVAL;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sys_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return errno;
	sys_prev = prev;
	sys_handler_on = 1;
	return 0;
}

/* ---- Keeping the filters what the block asks ----------------------------- */

static void
sys_lock_take(void)
{
	while (__atomic_exchange_n(&sys_lock, 1, __ATOMIC_ACQUIRE) != 0)
		sched_yield();
}

static void
sys_lock_drop(void)
{
	__atomic_store_n(&sys_lock, 0, __ATOMIC_RELEASE);
}

static int
sys_sync_locked(linux_agent_sys_t *t, bool guard)
{
	static sys_scan_t scan;
	uint8_t want[LINUX_AGENT_MAXSYS / 8], added[LINUX_AGENT_MAXSYS / 8];
	sys_range_t fresh[SYS_MAXRANGES];
	unsigned nfresh = 0, len;
	bool any = false, newnr = false;
	int err;

	memset(want, 0, sizeof(want));
	for (unsigned i = 0; t != NULL && i < LINUX_AGENT_MAXSYS; i++)
		if ((t->las_entry[i] != 0 || t->las_return[i] != 0) && !sys_never(i)) {
			bit_set(want, i);
			any = true;
		}
	any = any || guard;
	if (!any && sys_nranges == 0)
		return 0; /* nothing asked, nothing installed */
	if (any) {
		/* keep our SIGSYS and SIGTRAP handlers, and both unblocked */
		bit_set(want, SYS_rt_sigaction);
		bit_set(want, SYS_rt_sigprocmask);
	}
	if (sys_nranges == 0 && ((err = sys_seccomp_avail()) != 0 || (err = sys_aslr()) != 0 ||
				 (err = sys_unblockable()) != 0))
		return err;
	if ((err = sys_handler_install()) != 0)
		return err;
	if (sys_nranges == 0) {
		/* before the first filter, while libc's sigaction still
		 * reaches the kernel: the program may have replaced our
		 * SIGTRAP handler since the handshake (-p) */
		if ((err = linux_trap_reclaim()) != 0)
			return err;
		linux_trap_set_syscall(raw);
	}
	memset(&scan, 0, sizeof(scan));
	dl_iterate_phdr(sys_scan_cb, &scan);
	for (unsigned i = 0; i < scan.sc_n; i++)
		if (!range_known(&scan.sc_r[i]))
			fresh[nfresh++] = scan.sc_r[i];
	memset(added, 0, sizeof(added));
	for (unsigned i = 0; i < sizeof(want); i++) {
		added[i] = (uint8_t)(want[i] & ~sys_trapped[i]);
		newnr = newnr || added[i] != 0;
	}
	/* new numbers, from every range known and new */
	if (newnr) {
		sys_range_t all[SYS_MAXRANGES];
		unsigned n = 0;

		for (unsigned i = 0; i < sys_nranges; i++)
			all[n++] = sys_ranges[i];
		for (unsigned i = 0; i < nfresh && n < SYS_MAXRANGES; i++)
			all[n++] = fresh[i];
		if ((len = sys_build(added, all, n)) == 0)
			return E2BIG;
		if ((err = sys_install(len)) != 0)
			return err;
		for (unsigned i = 0; i < sizeof(added); i++)
			sys_trapped[i] |= added[i];
	}
	/* the numbers trapped before, from new ranges */
	if (nfresh > 0 && sys_nranges > 0) {
		uint8_t old[LINUX_AGENT_MAXSYS / 8];

		for (unsigned i = 0; i < sizeof(old); i++)
			old[i] = (uint8_t)(sys_trapped[i] & ~added[i]);
		if ((len = sys_build(old, fresh, nfresh)) == 0)
			return E2BIG;
		if ((err = sys_install(len)) != 0)
			return err;
	}
	if (newnr || sys_nranges > 0)
		for (unsigned i = 0; i < nfresh && sys_nranges < SYS_MAXRANGES; i++)
			sys_ranges[sys_nranges++] = fresh[i];
	return 0;
}

void
linux_agent_syscall_sync(struct linux_agent_block *b, bool syscalls)
{
	linux_agent_sys_t *t = NULL;
	bool guard;
	int err;

	if (b == NULL)
		return;
	if (syscalls)
		t = __atomic_load_n(&b->lab_sys, __ATOMIC_ACQUIRE);
	guard = __atomic_load_n(&b->lab_guard, __ATOMIC_ACQUIRE) != 0;
	if (t == NULL && !guard)
		return;
	/* before any filter: the handler tells a vfork child by it */
	sys_pid = raw(SYS_getpid, 0, 0, 0, 0, 0, 0);
	sys_lock_take();
	err = sys_sync_locked(t, guard);
	sys_lock_drop();
	if (guard)
		__atomic_store_n(&b->lab_counts->lac_guarded, err == 0 ? 1 : -err, __ATOMIC_RELEASE);
	if (t == NULL)
		return;
	sys_table = t;
	sys_live = 1;
	if (err != 0 && err != t->las_status)
		dprintf(STDERR_FILENO, "dtrace: system calls of pid %d cannot be traced: %s\n",
		        (int)getpid(),
		        err == EPERM   ? "address-space randomization is off"
		        : err == EBUSY ? "a thread blocks SIGSYS"
		                       : strerror(err));
	t->las_status = err;
}

void
linux_agent_syscall_thread(void)
{
	uint64_t unblock = SYS_SIGSYS_BIT;

	/* its calls are trapped too: SIGSYS must reach it (a raw call:
	 * rt_sigprocmask may be trapped already) */
	(void)raw(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&unblock, 0, 8, 0, 0);
	sys_agent_thread = 1;
}

void
linux_agent_syscall_stop(void)
{
	sys_live = 0;
	sys_table = NULL;
}

void
linux_agent_syscall_forget(void)
{
	/* a forked child: untraced, but its filters and handler stay; its
	 * signal actions are its own (not a vfork child's) */
	sys_pid = raw(SYS_getpid, 0, 0, 0, 0, 0, 0);
	sys_live = 0;
	sys_table = NULL;
	sys_lock = 0;
}
