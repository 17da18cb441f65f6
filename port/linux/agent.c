/*
 * port/linux/agent.c: the agent, a shared library that runs inside each
 * traced process (libdtrace-agent.so).
 *
 * It links its own copy of the core, the instruction-probe engine's trap
 * path and this port, maps the consumer's arena and code arena at the
 * addresses the consumer uses, and attaches the core and the engine to the
 * consumer's (dtrace_attach, inst_attach): from then on a breakpoint of a
 * pid probe traps into this process's SIGTRAP handler (trap.c), which
 * hands it here, and the probe fires into the consumer's buffers as if it
 * had fired in a kernel.
 *
 * How it arrives:
 *   - `dtrace -c`: preloaded (LD_PRELOAD) with the connection's descriptor
 *     in DTRACE_AGENT_FD; the constructor attaches and then holds the
 *     program until the consumer says GO, so that the probes of main and
 *     of every constructor after this one are in place before they run.
 *     Both variables are taken out of the environment, so the program's
 *     own children run without an agent.
 *   - `dtrace -p`: inject.c makes the process call dlopen() and then
 *     dtrace_agent_attach() with the name of the consumer's socket.
 *
 * Then one thread (signals blocked, so it never takes the program's) reads
 * the connection.  End-of-file without DETACH means the consumer died: the
 * thread writes back the original bytes of every site of this process, so
 * the program runs on as if it had never been traced, and the agent goes
 * quiet.  Threads that are inside a trap or a trampoline at that moment
 * still find their site (the tables and the code arena stay mapped).
 *
 * A forked child inherits the parent's patched text: a fork handler puts
 * the original bytes back in the child's copy (without touching the shared
 * tables, which describe the parent) and closes the child's copy of the
 * connection.  exec replaces everything; the connection is close-on-exec,
 * so the consumer sees end-of-file and drops the process's probes.
 *
 * Only dtrace_agent_attach is exported; the core and the libc functions
 * it needs in probe context are the library's own (agent_libc.c), so the
 * program's symbols never stand in for them and a probe on the program's
 * memcpy cannot fire inside probe context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <stddef.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent_proto.h"
#include "agent_sysisa.h"
#include "dtrace.h"
#include "inst.h"
#include "linux_impl.h"

static int agent_sock = -1;
static pid_t agent_pid; /* the key of this process's sites */
static linux_agent_block_t *agent_block;
static volatile sig_atomic_t agent_quiet = 1;
static pthread_t agent_thread;
static bool agent_thread_joinable;

/* The agent thread's stack, made by the agent so that its breakpoints
 * and system calls are known for its own from the thread's first
 * instruction (glibc runs some of libc in a new thread before its start
 * routine); kept for the next consumer's thread. */
#define AGENT_STACK_SIZE (256 * 1024)
static void *agent_stack;
static uintptr_t agent_stack_lo, agent_stack_hi;

bool
linux_agent_own_stack(uintptr_t sp)
{
	return sp >= __atomic_load_n(&agent_stack_lo, __ATOMIC_ACQUIRE) &&
	       sp < __atomic_load_n(&agent_stack_hi, __ATOMIC_ACQUIRE);
}

int dtrace_agent_attach(const char *sockname) __attribute__((visibility("default")));

/* ---- Objects loaded and unloaded --------------------------------------- */

#define AGENT_MODACK_NS 2000000000LL /* how long a dlopen waits for the consumer */

/*
 * The hook at the dynamic linker's debugger breakpoint (_r_debug.r_brk,
 * which the consumer patched for us): at each consistent state after a
 * dlopen or dlclose, rebuild the unwind table and tell the consumer, then
 * wait (bounded) until it has made and placed the probes the new objects
 * match, so a library's probes are in place before its code runs.  The
 * thread holds the dynamic linker's lock here: nothing below loads,
 * allocates or calls the dynamic linker but dl_iterate_phdr, whose lock is
 * another (recursive) one.
 */
static void
agent_hook(uint64_t key, uintptr_t addr, isa_regs_t *regs)
{
	linux_agent_block_t *b = agent_block;
	linux_agent_msg_t m;
	struct timespec ts = {0, 0};
	uint32_t gen;

	(void)key;
	(void)regs;
	if (addr != (uintptr_t)_r_debug.r_brk || _r_debug.r_state != RT_CONSISTENT || b == NULL ||
	    agent_quiet)
		return;
	linux_unwind_refresh();
	gen = __atomic_add_fetch(&b->lab_counts->lac_modgen, 1, __ATOMIC_ACQ_REL);
	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_MODULES;
	m.am_pid = (uint32_t)agent_pid;
	m.am_arg[0] = gen;
	if (agent_sock < 0 || linux_agent_send(agent_sock, &m, NULL, 0) != 0)
		return;
	for (int64_t waited = 0; waited < AGENT_MODACK_NS; waited += 100000000) {
		uint32_t ack = __atomic_load_n(&b->lab_modack, __ATOMIC_ACQUIRE);

		if ((int32_t)(ack - gen) >= 0 || agent_quiet)
			break;
		ts.tv_nsec = 100000000;
		syscall(SYS_futex, &b->lab_modack, FUTEX_WAIT, ack, &ts, NULL, 0);
	}
}

/* ---- Breakpoints ----------------------------------------------------------- */

/* Does the text at site still hold this ISA's breakpoint? */
static bool
breakpoint_at(uintptr_t site)
{
	uint8_t bp[ISA_INSN_MAXLEN];
	size_t n = isa_breakpoint_insn(ISA_INSN_MAXLEN, bp, sizeof(bp)), i;
	isa_nofault_result_t r;

	for (i = 0; i < n; i++) {
		r = isa_nofault_load8(site + i);
		if (r.fault != 0 || (uint8_t)r.value != bp[i])
			return false;
	}
	return n > 0;
}

/* The agent's own text: a probed function it calls (libc's, from probe
 * context or from its thread and its requests) is not the program's call. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char _etext[] __attribute__((visibility("hidden")));

bool
linux_agent_own_text(uintptr_t pc)
{
	return pc >= (uintptr_t)__ehdr_start && pc < (uintptr_t)_etext;
}

static bool
agent_called(const isa_regs_t *regs)
{
	isa_regs_t caller = *regs;

	/* (as if at a function's entry: at another site the return address
	 * so read is a guess, and a wrong one would have to name our text) */
	return isa_regs_entry_caller(&caller) &&
	       linux_agent_own_text((uintptr_t)isa_regs_pc(&caller));
}

/*
 * Probe context: do the probes of a site this thread reached fire?  Not
 * in a vfork (posix_spawn) child, which runs on our memory, text and
 * thread caches (the pid cached in TLS is ours) until it execs: its probes
 * would be counted as this process's, and a raw getpid per firing tells
 * it.  Nor on the agent's own thread: it is not the program; nor at a
 * probed function the agent called (libc's, from probe context -- its
 * clock_gettime under pid$target:libc.so.6::entry, which would be refused
 * and reported as a drop the program never made -- or from the program's
 * thread it holds before GO).
 */
static bool
agent_fires(const isa_regs_t *regs)
{
	return !linux_agent_own_stack((uintptr_t)isa_regs_sp(regs)) && !agent_called(regs) &&
	       linux_agent_sysgadget(SYS_getpid, 0, 0, 0, 0, 0, 0) == agent_pid;
}

/* Probe context: the SIGTRAP handler's breakpoint hook. */
static bool
agent_breakpoint(uintptr_t site, ucontext_t *uc)
{
	const isa_regs_t *outer = linux_trap_regs;
	uintptr_t fault = 0;
	isa_regs_t regs;
	int rv;

	if (agent_pid == 0)
		goto vanished;
	linux_mcontext_to_regs(uc, &regs);
	/* The probe's PC is the site, not where the trap left it (x86's int3
	 * reports the byte after): stacks and uregs[R_PC] start there. */
	regs.r[ISA_REG_PC] = site;
	if (inst_tramp_trap((uint64_t)agent_pid, site, &regs, &linux_inst_thread) == INST_TRAP_DONE) {
		linux_regs_to_mcontext(&regs, uc);
		return true;
	}
	if (!agent_fires(&regs)) {
		rv = inst_step((uint64_t)agent_pid, site, &regs, &linux_inst_thread, &fault);
		if (rv == INST_TRAP_DONE) {
			linux_regs_to_mcontext(&regs, uc);
			return true;
		}
		if (rv == INST_TRAP_FAULT) {
			long self = linux_agent_sysgadget(SYS_getpid, 0, 0, 0, 0, 0, 0);

			linux_agent_sysgadget(SYS_tgkill, self,
					      linux_agent_sysgadget(SYS_gettid, 0, 0, 0, 0, 0, 0),
					      SIGSEGV, 0, 0, 0);
			return true;
		}
		goto vanished;
	}
	linux_trap_regs = &regs;
	rv = inst_trap((uint64_t)agent_pid, site, &regs, &linux_inst_thread, &fault);
	linux_trap_regs = outer;
	if (rv == INST_TRAP_DONE) {
		linux_regs_to_mcontext(&regs, uc);
		return true;
	}
	if (rv == INST_TRAP_FAULT) {
		/* The instruction itself would have faulted here: let the
		 * program see that fault, with the thread still at the site. */
		syscall(SYS_tgkill, linux_self_pid(), linux_self_tid(), SIGSEGV);
		return true;
	}
vanished:
	/* No site: if the breakpoint is gone too, a probe was removed between
	 * the trap and now; run whatever the text holds now. */
	if (!breakpoint_at(site)) {
		linux_mcontext_set_pc(uc, site);
		return true;
	}
	return false;
}

/*
 * Probe context, in the thread's own context: a jump trampoline
 * (jump/, isa/<isa>/jump.c) called us with the registers it saved at
 * `site`.  The same choice as a breakpoint's (agent_fires), and nothing
 * to step: the trampoline runs the replaced instructions itself.
 */
void
linux_agent_jump_fire(uint64_t *frame, uintptr_t site)
{
	const isa_regs_t *outer = linux_trap_regs;
	isa_regs_t regs;

	if (agent_pid == 0)
		return;
	isa_jump_frame_regs(frame, site, &regs);
	if (!agent_fires(&regs))
		return;
	linux_trap_regs = &regs;
	(void)inst_jump_fire((uint64_t)agent_pid, site, &regs, &linux_inst_thread);
	linux_trap_regs = outer;
}

/* ---- The connection ------------------------------------------------------ */

static void
agent_fail(int sock, int err, int step)
{
	linux_agent_msg_t m;

	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_FAIL;
	m.am_arg[AM_FAIL_ERRNO] = (uint64_t)err;
	m.am_arg[AM_FAIL_STEP] = (uint64_t)step;
	(void)linux_agent_send(sock, &m, NULL, 0);
}

/* HELLO, SETUP, map, attach, READY.  Returns 0 or an errno value. */
static int
agent_handshake(int sock)
{
	linux_agent_msg_t m;
	int fds[4], nfds = 0, err, i;

	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_HELLO;
	m.am_pid = (uint32_t)getpid();
	m.am_arg[AM_HELLO_VERSION] = LINUX_AGENT_VERSION;
	m.am_arg[AM_HELLO_RBRK] = (uint64_t)_r_debug.r_brk; /* where objects come and go */
	m.am_arg[AM_HELLO_JUMP] = linux_agent_jump_entry();
	if ((err = linux_agent_send(sock, &m, NULL, 0)) != 0)
		return err;
	if ((err = linux_agent_recv(sock, &m, fds, 4, &nfds, -1)) != 0)
		goto out;
	if (m.am_type != LINUX_AGENT_SETUP || nfds != 3) {
		err = EPROTO;
		goto out;
	}
	if ((err = linux_arena_attach(fds[0], fds[2])) != 0 ||
	    (uintptr_t)linux_arena != (uintptr_t)m.am_arg[AM_ARENA_BASE]) {
		err = err != 0 ? err : EEXIST;
		agent_fail(sock, err, LINUX_AGENT_STEP_ARENA);
		goto out;
	}
	fds[0] = fds[2] = -1; /* the arena keeps them */
	if ((err = linux_code_attach(fds[1], (uintptr_t)m.am_arg[AM_CODE_BASE],
				     (size_t)m.am_arg[AM_CODE_SIZE])) != 0) {
		agent_fail(sock, err, LINUX_AGENT_STEP_CODE);
		goto out;
	}
	fds[1] = -1; /* the code arena keeps it (agent_jump.c maps it again) */
	if ((err = dtrace_attach((void *)(uintptr_t)m.am_arg[AM_CORE])) != 0 ||
	    (err = inst_attach((void *)(uintptr_t)m.am_arg[AM_INST])) != 0) {
		agent_fail(sock, err, LINUX_AGENT_STEP_ATTACH);
		goto out;
	}
	agent_block = (linux_agent_block_t *)(uintptr_t)m.am_arg[AM_BLOCK];
	linux_refused_count = &agent_block->lab_counts->lac_refused;
	agent_pid = getpid();
	linux_thread_refresh_execname();
	linux_unwind_refresh();
	inst_set_hook(agent_hook);
	linux_trap_set_breakpoint_handler(agent_breakpoint);
	if ((err = linux_trap_install()) != 0) {
		agent_fail(sock, err, LINUX_AGENT_STEP_TRAPS);
		goto out;
	}
	agent_quiet = 0;
	memset(&m, 0, sizeof(m));
	m.am_type = LINUX_AGENT_READY;
	m.am_pid = (uint32_t)agent_pid;
	err = linux_agent_send(sock, &m, NULL, 0);
out:
	for (i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return err;
}

/* The consumer is gone without saying DETACH: mend the text. */
static void
agent_orphaned(void)
{
	if (agent_block != NULL && agent_block->lab_detached)
		return;
	/* The site tables are in the arena's read-only part: the agent
	 * cannot mark the sites unpatched, and need not: only this process
	 * traps on its sites, and a trap already taken when the text is
	 * mended still finds its site and steps the displaced instruction,
	 * as it must. */
	(void)inst_space_restore((uint64_t)agent_pid, NULL, false);
	linux_agent_usdt_release(agent_block, false);
}

static void *
agent_main(void *arg)
{
	linux_agent_msg_t m;
	int err;

	(void)arg;
	linux_agent_syscall_thread();
	for (;;) {
		err = linux_agent_recv(agent_sock, &m, NULL, 0, NULL, -1);
		if (err == ECONNRESET || err == EBADF || err == ENOTCONN || err == ECONNREFUSED)
			break;
		if (err != 0)
			continue;
		if (m.am_type == LINUX_AGENT_PROFILE)
			linux_agent_profile_sync(agent_block);
		else if (m.am_type == LINUX_AGENT_SYSCALL)
			linux_agent_syscall_sync(agent_block, true);
		else if (m.am_type == LINUX_AGENT_JUMP)
			linux_agent_jump_request(agent_block);
		else if (m.am_type == LINUX_AGENT_DETACH)
			break;
	}
	agent_quiet = 1;
	linux_agent_profile_stop();
	linux_agent_syscall_stop();
	agent_orphaned();
	close(agent_sock);
	agent_sock = -1;
	return NULL;
}

static int
agent_start_thread(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int err;

	/* the previous consumer's thread, finished or finishing: its stack
	 * is the new one's */
	if (agent_thread_joinable)
		pthread_join(agent_thread, NULL);
	agent_thread_joinable = false;
	if (agent_stack == NULL) {
		void *stk = mmap(NULL, AGENT_STACK_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		if (stk == MAP_FAILED)
			return errno;
		agent_stack = stk;
		__atomic_store_n(&agent_stack_hi, (uintptr_t)stk + AGENT_STACK_SIZE,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&agent_stack_lo, (uintptr_t)stk, __ATOMIC_RELEASE);
	}
	if ((err = pthread_attr_init(&attr)) != 0)
		return err;
	(void)pthread_attr_setstack(&attr, agent_stack, AGENT_STACK_SIZE);
	sigfillset(&all);
	sigdelset(&all, SIGSYS); /* the syscall provider's traps must reach it */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&agent_thread, &attr, agent_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	agent_thread_joinable = err == 0;
	return err;
}

/* ---- fork ------------------------------------------------------------------ */

static void
agent_atfork_child(void)
{
	if (agent_pid == 0)
		return;
	/* The child's text is a copy of the parent's, breakpoints and all;
	 * the tables describe the parent, so leave them be. */
	if (!agent_quiet) {
		(void)inst_space_restore((uint64_t)agent_pid, NULL, false);
		linux_agent_usdt_release(agent_block, true);
	}
	agent_quiet = 1;
	agent_thread_joinable = false; /* the parent's */
	linux_agent_profile_forget();
	linux_agent_syscall_forget();
	if (agent_sock >= 0)
		close(agent_sock);
	agent_sock = -1;
	linux_refused_count = NULL; /* the parent's counter */
	agent_block = NULL;
}

static void
agent_once(void)
{
	pthread_atfork(NULL, NULL, agent_atfork_child);
}

static int
agent_setup(int sock)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int err;

	pthread_once(&once, agent_once);
	if ((err = agent_handshake(sock)) != 0)
		return err;
	agent_sock = sock;
	return 0;
}


/* ---- Arrival ------------------------------------------------------------- */

/* Take this library out of LD_PRELOAD: the program's children are not
 * traced. */
static void
agent_unpreload(void)
{
	const char *pre = getenv("LD_PRELOAD");
	char *copy, *tok, *save = NULL, *out;
	size_t len;

	if (pre == NULL)
		return;
	len = strlen(pre);
	if ((copy = strdup(pre)) == NULL || (out = calloc(1, len + 1)) == NULL) {
		free(copy);
		return;
	}
	for (tok = strtok_r(copy, ": ", &save); tok != NULL; tok = strtok_r(NULL, ": ", &save)) {
		const char *base = strrchr(tok, '/');

		if (strcmp(base != NULL ? base + 1 : tok, LINUX_AGENT_NAME) == 0)
			continue;
		if (out[0] != '\0')
			strcat(out, ":");
		strcat(out, tok);
	}
	if (out[0] == '\0')
		unsetenv("LD_PRELOAD");
	else
		setenv("LD_PRELOAD", out, 1);
	free(copy);
	free(out);
}

__attribute__((constructor)) static void
agent_preloaded(void)
{
	const char *env = getenv(LINUX_AGENT_FD_ENV);
	linux_agent_msg_t m;
	char *end;
	long fd;

	if (env == NULL)
		return;
	fd = strtol(env, &end, 10);
	unsetenv(LINUX_AGENT_FD_ENV);
	agent_unpreload();
	if (*end != '\0' || fd < 0 || fd > INT32_MAX)
		return;
	(void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	if (agent_setup((int)fd) != 0) {
		close((int)fd);
		return;
	}
	/* Hold the program until the consumer has placed its probes.  A
	 * consumer that goes away first never lets it run: dtrace kills a
	 * command it created rather than leave it running untraced. */
	for (;;) {
		if (linux_agent_recv(agent_sock, &m, NULL, 0, NULL, -1) != 0) {
			agent_quiet = 1;
			raise(SIGKILL);
		}
		if (m.am_type == LINUX_AGENT_GO)
			break;
		if (m.am_type == LINUX_AGENT_PROFILE)
			linux_agent_profile_sync(agent_block);
		/* breakpoints are being armed: SIGTRAP kept unblocked */
		if (m.am_type == LINUX_AGENT_SYSCALL)
			linux_agent_syscall_sync(agent_block, false);
		if (m.am_type == LINUX_AGENT_JUMP)
			linux_agent_jump_request(agent_block);
	}
	(void)agent_start_thread();
	/* system calls are trapped from here: the program's, not ours */
	linux_agent_syscall_sync(agent_block, true);
}

int
dtrace_agent_attach(const char *sockname)
{
	struct sockaddr_un sa;
	size_t len = strlen(sockname);
	int sock, err;

	if (agent_sock >= 0)
		return EBUSY;
	/* A consumer traced this process before and left: let go of its
	 * memory (kept mapped: see linux_arena_abandon) to take the new one. */
	if (agent_pid != 0 && agent_quiet) {
		linux_refused_count = NULL;
		linux_arena_abandon();
		linux_code_abandon();
		linux_agent_jump_forget();
		dtrace_detach();
		agent_block = NULL;
	}
	if (len + 1 >= sizeof(sa.sun_path))
		return ENAMETOOLONG;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	/* an abstract name: sun_path[0] is NUL */
	memcpy(sa.sun_path + 1, sockname, len);
	if ((sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0)
		return errno;
	if (connect(sock, (struct sockaddr *)&sa,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) != 0) {
		err = errno;
		close(sock);
		return err;
	}
	if ((err = agent_setup(sock)) != 0 || (err = agent_start_thread()) != 0) {
		close(sock);
		agent_sock = -1;
		return err;
	}
	return 0;
}
