/*
 * port/linux/trap.c: the host's signal handlers for faults and breakpoints.
 *
 * SIGSEGV and SIGBUS: a fault whose PC lies in the ISA's nofault
 * primitives (isa_nofault_contains) is ours: the thread resumes at the
 * ISA's landing pad with the faulting address and a fault code, and the
 * primitive returns them.  No sigsetjmp, no state: the check is on the PC
 * alone, so it is correct in any thread and any nesting.
 *
 * SIGTRAP: a breakpoint (si_code TRAP_BRKPT, or SI_KERNEL for x86 int3) is
 * offered to the registered breakpoint handler with the patched site.
 *
 * Anything not ours goes to the handler that was installed before us, so a
 * traced process behaves as if we were not there: a function handler is
 * called with the same arguments; the default action is restored and the
 * signal re-raised (synchronous faults simply re-execute the instruction,
 * a breakpoint is re-executed from its site); an ignored signal is
 * dropped unless it is a synchronous fault, which the kernel would not let
 * a process ignore either.  Handlers save and restore errno.
 *
 * In an agent whose seccomp filters trap the program's rt_sigaction
 * (agent_syscall.c), SIGTRAP's handler stays ours: what the program asks
 * for SIGTRAP is recorded here instead (linux_trap_previous_set) and
 * called as above, and the system calls these handlers make about signals
 * go through the agent's own instruction, which the filters let through.
 * The breakpoint handler unblocks SIGSEGV and SIGBUS for itself when the
 * interrupted code had them blocked: a nofault load that faulted with
 * them blocked would be forced on the thread with the default action.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_impl.h"

static const int trapped_signals[] = {SIGSEGV, SIGBUS, SIGTRAP};

/* errno's offset from the thread pointer (linux_errno), learnt when the
 * handlers are installed. */
static ptrdiff_t errno_off;
static bool errno_known;

int *
linux_errno(void)
{
	return errno_known ? (int *)((char *)__builtin_thread_pointer() + errno_off) : &errno;
}
#define NTRAPPED (sizeof(trapped_signals) / sizeof(trapped_signals[0]))

#define TRAP_SIGBIT(sig) (1ULL << ((sig) - 1))

static struct sigaction previous[NTRAPPED];
static bool installed;
static _Atomic(linux_breakpoint_fn_t) breakpoint_fn;
static long (*trap_syscall_fn)(long nr, long a0, long a1, long a2, long a3, long a4, long a5);

void
linux_trap_set_syscall(long (*fn)(long nr, long a0, long a1, long a2, long a3, long a4, long a5))
{
	__atomic_store_n(&trap_syscall_fn, fn, __ATOMIC_RELEASE);
}

/* A system call about signals, made where the agent's filters let it
 * through once it has any. */
static void
trap_syscall(long nr, long a0, long a1, long a2, long a3)
{
	long (*fn)(long, long, long, long, long, long, long) =
		__atomic_load_n(&trap_syscall_fn, __ATOMIC_ACQUIRE);

	if (fn != NULL)
		(void)fn(nr, a0, a1, a2, a3, 0, 0);
	else
		(void)syscall(nr, a0, a1, a2, a3);
}

void
linux_trap_set_breakpoint_handler(linux_breakpoint_fn_t fn)
{
	atomic_store(&breakpoint_fn, fn);
}


static int
trap_index(int sig)
{
	unsigned i;

	for (i = 0; i < NTRAPPED; i++)
		if (trapped_signals[i] == sig)
			return (int)i;
	return -1;
}

/* Hand a signal that is not ours to whoever had it before us. */
static void
chain(int sig, siginfo_t *si, ucontext_t *uc, bool synchronous)
{
	int i = trap_index(sig);
	struct sigaction *old = &previous[i];
	linux_ksigaction_t dfl;

	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, uc);
		return;
	}
	if (old->sa_handler == SIG_IGN && !synchronous)
		return;
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
		return;
	}
	/* Default action: restore it and let the signal happen again. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.ks_handler = (void *)SIG_DFL;
	trap_syscall(SYS_rt_sigaction, sig, (long)&dfl, 0, 8);
	if (!synchronous)
		syscall(SYS_tgkill, linux_self_pid(), linux_self_tid(), sig);
}

static void
fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	int *ep = linux_errno(), saved = *ep;
	uint64_t code;

	/* si_code > 0: raised by the kernel for this instruction, not sent. */
	if (si->si_code > 0 && isa_nofault_contains(linux_mcontext_pc(uc))) {
		code = (sig == SIGBUS && si->si_code == BUS_ADRALN) ? LINUX_NOFAULT_BADALIGN
								     : LINUX_NOFAULT_BADADDR;
		linux_mcontext_nofault_resume(uc, (uintptr_t)si->si_addr, code);
	} else {
		chain(sig, si, uc, si->si_code > 0);
	}
	*ep = saved;
}

static void
trap_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	int *ep = linux_errno(), saved = *ep;
	linux_breakpoint_fn_t fn = atomic_load(&breakpoint_fn);
	bool brk = si->si_code == TRAP_BRKPT || si->si_code == SI_KERNEL;
	uintptr_t site = 0;
	if (brk) {
		uint64_t blocked, faults = TRAP_SIGBIT(SIGSEGV) | TRAP_SIGBIT(SIGBUS);

		/* (the handler runs with the interrupted mask: SA_NODEFER,
		 * nothing added; sigreturn puts it back) */
		memcpy(&blocked, &uc->uc_sigmask, sizeof(blocked));
		if ((blocked & faults) != 0)
			trap_syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&faults, 0, 8);
		site = isa_breakpoint_site(linux_mcontext_pc(uc));
		if (fn != NULL && fn(site, uc)) {
			*ep = saved;
			return;
		}
		/* Not one of ours: re-execute the breakpoint instruction. */
		linux_mcontext_set_pc(uc, site);
	}
	chain(sig, si, uc, brk);
	*ep = saved;
}

static void
trap_action(int sig, struct sigaction *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sa_sigaction = sig == SIGTRAP ? trap_handler : fault_handler;
	/* SA_NODEFER: a fault inside a nofault load made from a probe that
	 * itself runs in a SIGSEGV handler is still ours. */
	sa->sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa->sa_mask);
}

void
linux_trap_previous_get(linux_ksigaction_t *ka)
{
	const struct sigaction *old = &previous[trap_index(SIGTRAP)];

	memset(ka, 0, sizeof(*ka));
	ka->ks_handler = (void *)old->sa_handler;
	ka->ks_flags = (unsigned long)(unsigned)old->sa_flags;
	ka->ks_restorer = (void *)old->sa_restorer;
	memcpy(&ka->ks_mask, &old->sa_mask, sizeof(ka->ks_mask));
}

void
linux_trap_previous_set(const linux_ksigaction_t *ka)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (void (*)(int))ka->ks_handler;
	sa.sa_flags = (int)ka->ks_flags;
	sa.sa_restorer = (void (*)(void))ka->ks_restorer;
	memcpy(&sa.sa_mask, &ka->ks_mask, sizeof(ka->ks_mask));
	previous[trap_index(SIGTRAP)] = sa;
}

int
linux_trap_reclaim(void)
{
	struct sigaction cur, sa;

	if (!installed)
		return 0;
	if (sigaction(SIGTRAP, NULL, &cur) != 0)
		return errno;
	if ((cur.sa_flags & SA_SIGINFO) != 0 && cur.sa_sigaction == trap_handler)
		return 0;
	trap_action(SIGTRAP, &sa);
	if (sigaction(SIGTRAP, &sa, NULL) != 0)
		return errno;
	previous[trap_index(SIGTRAP)] = cur;
	return 0;
}

int
linux_trap_install(void)
{
	struct sigaction sa;
	unsigned i;

	if (installed)
		return 0;
	errno_off = (char *)&errno - (char *)__builtin_thread_pointer();
	errno_known = true;
	for (i = 0; i < NTRAPPED; i++) {
		trap_action(trapped_signals[i], &sa);
		if (sigaction(trapped_signals[i], &sa, &previous[i]) != 0)
			return errno;
	}
	installed = true;
	return 0;
}

bool
linux_trap_installed(void)
{
	return installed;
}

void
linux_trap_uninstall(void)
{
	unsigned i;

	if (!installed)
		return;
	for (i = 0; i < NTRAPPED; i++)
		sigaction(trapped_signals[i], &previous[i], NULL);
	installed = false;
}
