/*
 * port/linux/linux_impl.h: what the Linux user-space host's files share.
 *
 * The host runs the core as a library.  Its state lives in two places:
 *   - the ARENA, two memfds mapped at the same addresses in every process
 *     that takes part (consumer and agents), holding every allocation the
 *     core makes, the CPU slots and the core's two locks, so that core
 *     pointers mean the same thing everywhere; agents map its first part
 *     read-only (see "The arena" below);
 *   - per-thread facts in initial-exec TLS, which signal handlers may read
 *     without allocating (pid/tid caches, the thread's home slot, the
 *     registers of the interrupted context, posted raise/stop).
 * Nothing here includes core/dtrace_impl.h: the port sees the core only
 * through core/port.h and core/dtrace.h.
 */
#ifndef DTRACE_PORT_LINUX_IMPL_H
#define DTRACE_PORT_LINUX_IMPL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <ucontext.h>

#include "dtrace.h"
#include "inst.h"
#include "isa.h"
#include "port.h"

/* Initial-exec TLS: a fixed offset from the thread pointer, never allocated
 * lazily, so signal handlers may use it. */
#define LINUX_TLS __thread __attribute__((tls_model("initial-exec")))

/* ---- CPU slots ---------------------------------------------------------- */

/* Each slot on its own cache line: busy and owner hold (pid << 32 | tid)
 * of the thread using it (0: free). */
typedef struct linux_slot {
	_Atomic uint64_t ls_busy;  /* holder while in probe context or a cross-call */
	_Atomic uint64_t ls_owner; /* thread that claimed it as its home slot */
	uint64_t ls_pad[6];
} linux_slot_t;

#define LINUX_SLOTS_PER_CPU 4
#define LINUX_MIN_SLOTS 64
#define LINUX_MAX_SLOTS 256

/* ---- The arena ----------------------------------------------------------- */

/*
 * Two parts at consecutive addresses, each its own memfd:
 *   [la_base, la_base + la_rosize)  the READ-ONLY part ("dtrace-arena-ro"):
 *       this header, the allocator's state and everything the core
 *       allocates with dtrace_port_zalloc (ECBs, DIFOs, actions, probes,
 *       states, ...).  The consumer maps it writable; agents map it
 *       PROT_READ from a read-only descriptor of a memfd sealed against
 *       writing (F_SEAL_FUTURE_WRITE), so no traced process can make it
 *       writable;
 *   [la_base + la_rosize, la_base + la_size)  the WRITABLE part
 *       ("dtrace-arena"): linux_arena_rw_t (the CPU slots), then what the
 *       core allocates with dtrace_port_zalloc_probe (buffers, dynamic
 *       variables, per-CPU state, counters).  Its allocator's state is the
 *       consumer's private memory: nothing a traced process writes is
 *       followed when it allocates or frees.
 */
#define LINUX_ARENA_MAGIC 0x44547261636541ULL /* "DTraceA" */
#define LINUX_ARENA_NCLASSES 12		       /* small blocks 16 B .. 32 KiB */

typedef struct linux_arena_hdr {
	uint64_t la_magic;
	uint64_t la_size;   /* bytes mapped, both parts */
	uintptr_t la_base;  /* address it is mapped at in every process */
	uint64_t la_rosize; /* bytes of the read-only part, at la_base */
	uint32_t la_nslots;
	uint32_t la_nhwslots; /* slots 0 .. la_nhwslots-1 are the processors' */
	uint32_t la_pagesize;
	pthread_mutex_t la_alloc_lock; /* robust, process-shared */
	uintptr_t la_bump;	       /* first never-used byte of the read-only part */
	uintptr_t la_small[LINUX_ARENA_NCLASSES]; /* free lists of small blocks */
	uintptr_t la_extents;			 /* address-ordered free extents */
	uint64_t la_inuse;			 /* bytes handed out (both parts) */
	pthread_mutex_t la_locks[DTRACE_NLOCKS];	 /* the core's locks */
	_Atomic uint64_t la_lock_owner[DTRACE_NLOCKS]; /* (pid << 32 | tid) */
} linux_arena_hdr_t;

/* The start of the writable part. */
typedef struct linux_arena_rw {
	linux_slot_t lr_slots[LINUX_MAX_SLOTS] __attribute__((aligned(64)));
} linux_arena_rw_t;

extern linux_arena_hdr_t *linux_arena;
extern linux_arena_rw_t *linux_arena_rw;

/* Create the arena (size 0: the default) and make it this process's. */
int linux_arena_create(size_t size);
/* Map an existing arena from its two memfds at the address it was created
 * at: `fd` the writable part's, `rofd` the read-only part's (mapped
 * PROT_READ). */
int linux_arena_attach(int fd, int rofd);
int linux_arena_fd(void);
/* A read-only descriptor of the read-only part, for an agent (the caller
 * closes it); -1 and errno on failure. */
int linux_arena_rofd(void);
void linux_arena_destroy(void);
void linux_arena_abandon(void);
/* A random hint for a shared mapping of `size` in window 0 (47/48-bit) or
 * 1 (Sv39); 0 if none fits.  linux_map_window: a window's bounds, which the
 * kernel's own placement of a process's mappings avoids (arena.c). */
uintptr_t linux_map_hint(int window, size_t size);
bool linux_map_window(int window, uintptr_t *base, uintptr_t *span);
bool linux_arena_contains(uintptr_t addr, size_t len);
/* Within the writable part? */
bool linux_arena_rw_contains(uintptr_t addr, size_t len);

/* ---- The current thread ------------------------------------------------- */

/* (pid << 32 | tid) of the calling thread, cached; safe in signal handlers. */
uint64_t linux_self_id(void);
/* A small /proc file into buf, NUL-terminated: its length, or -1. */
ssize_t linux_read_proc(const char *path, char *buf, size_t size);
/* Has thread tid of process pid (the process itself: tid 0) exited, a
 * zombie or gone?  Reads /proc: not probe context. */
bool linux_task_exited(pid_t pid, pid_t tid);
pid_t linux_self_pid(void);
pid_t linux_self_tid(void);
/* Forget cached ids and the home slot (the child side of fork). */
void linux_thread_forget(void);
/* Read the process's name for execname (outside probe context). */
void linux_thread_refresh_execname(void);

/* Registers of the context a probe interrupted, set by the signal handler
 * that fires it for the duration of dtrace_probe(); NULL otherwise. */
extern LINUX_TLS const isa_regs_t *linux_trap_regs;
/* The engine's per-thread state (inst.h) for the traps this thread takes;
 * USDT probes publish their arguments in it while they fire. */
extern LINUX_TLS inst_thread_t linux_inst_thread;
/* Frame pointer of the function that called dtrace_port_probe_enter(),
 * while the thread is in probe context; 0 otherwise. */
extern LINUX_TLS uintptr_t linux_probe_fp;

/* ---- Slots --------------------------------------------------------------- */

void linux_slots_init(uint32_t nslots);
/* Where dtrace_port_probe_enter counts the firings it refuses (an
 * agent's lac_refused), or NULL. */
extern volatile uint64_t *linux_refused_count;
/* Is this thread in probe context (between dtrace_port_probe_enter and
 * exit)?  The syscall provider fires nothing for calls made there. */
bool linux_slots_in_probe(void);
/* Signals posted by raise()/stop() and delivered when the thread leaves
 * probe context. */
extern LINUX_TLS int linux_pending_signal;
extern LINUX_TLS bool linux_pending_stop;

/* ---- Traps and signal handlers ------------------------------------------ */

int linux_trap_install(void);
/*
 * The calling thread's errno, for signal handlers to save and restore:
 * reached at its offset from the thread pointer (libc's errno is
 * initial-exec TLS, at the same offset in every thread), learnt by
 * linux_trap_install().  Calling __errno_location() from a handler traps
 * again, without end, once a pid probe patched that function
 * (pid$target:libc.so.6::entry).  Probe context: yes.
 */
int *linux_errno(void);
void linux_trap_uninstall(void);
bool linux_trap_installed(void);

/* A breakpoint handler: `site` is the patched instruction's address.  It
 * returns true if the trap was its own, after setting the context's PC
 * (linux_mcontext_set_pc) to where the thread must resume. */
typedef bool (*linux_breakpoint_fn_t)(uintptr_t site, ucontext_t *uc);
void linux_trap_set_breakpoint_handler(linux_breakpoint_fn_t fn);

/* The kernel's struct sigaction, as rt_sigaction takes it (64 signals). */
typedef struct linux_ksigaction {
	void *ks_handler;
	unsigned long ks_flags;
	void *ks_restorer;
	uint64_t ks_mask;
} linux_ksigaction_t;

/*
 * For an agent that keeps SIGTRAP's handler its own (agent_syscall.c
 * traps the program's rt_sigaction): what the program has for SIGTRAP,
 * which the handler calls for a SIGTRAP that is not ours (get and set, in
 * the kernel's form); put our handler back if the program replaced it
 * before (recording the program's); the system call the handlers make
 * their own signal changes with (the agent's untrapped instruction;
 * libc's syscall() until set).
 */
void linux_trap_previous_get(linux_ksigaction_t *ka);
void linux_trap_previous_set(const linux_ksigaction_t *ka);
int linux_trap_reclaim(void);
void linux_trap_set_syscall(long (*fn)(long nr, long a0, long a1, long a2, long a3, long a4,
				       long a5));

/* Fault codes the SIGSEGV/SIGBUS handler hands to the nofault primitives. */
#define LINUX_NOFAULT_BADADDR 1
#define LINUX_NOFAULT_BADALIGN 2

/* ---- ucontext <-> isa_regs_t (port/linux/mcontext_<isa>.c) -------------- */

void linux_mcontext_to_regs(const ucontext_t *uc, isa_regs_t *regs);
/* Write every register the ISA's step may change back into the context
 * (general registers, PC, SP, flags). */
void linux_regs_to_mcontext(const isa_regs_t *regs, ucontext_t *uc);
uintptr_t linux_mcontext_pc(const ucontext_t *uc);
void linux_mcontext_set_pc(ucontext_t *uc, uintptr_t pc);
/* Resume a faulted nofault primitive at isa_nofault_pad returning
 * {addr, code}. */
void linux_mcontext_nofault_resume(ucontext_t *uc, uintptr_t addr, uint64_t code);

/* ---- Per-CPU periodic signals (profile/tick) ---------------------------- */

/*
 * A cpu timer calls fire(arg, regs) every interval_ns in a signal handler
 * (probe context) of a thread pinned to each online CPU (all_cpus) or of
 * one such thread.  regs are the interrupted registers.
 */
typedef void (*linux_cputimer_fn_t)(void *arg, const isa_regs_t *regs);
typedef struct linux_cputimer linux_cputimer_t;

int linux_cputimer_start(bool all_cpus, uint64_t interval_ns, linux_cputimer_fn_t fire, void *arg,
			 linux_cputimer_t **tp);
/* Stop it; when this returns no call of fire is running or will start. */
void linux_cputimer_stop(linux_cputimer_t *t);
/* Number of online CPUs the timers run on. */
uint32_t linux_cputimer_ncpus(void);
/* Join the pinned threads (host teardown; no timer may be running). */
void linux_cputimer_shutdown(void);

/* ---- Unwinding through call-frame information (unwind.c) ---------------- */

/* Rebuild this process's table of objects (not probe context). */
void linux_unwind_refresh(void);
/* isa_cfi_walk over that table; -1 if it was never built. */
int linux_unwind_walk(const isa_regs_t *regs, uint64_t *pcs, int max);

/* membarrier(2) commands (<linux/membarrier.h>, a stable ABI): make every
 * thread of this process fetch instructions afresh (text.c, agent_jump.c). */
#define LINUX_MEMBARRIER_SYNC_CORE (1 << 5)
#define LINUX_MEMBARRIER_REGISTER_SYNC_CORE (1 << 6)

/* Does a rel32 jump at `near` reach all of [view, view + size)?  A little
 * under 2 GiB, with room (jump.c, agent_jump.c). */
#define LINUX_JUMP_REACH 0x7f000000ULL
static inline bool
linux_jump_reaches(uintptr_t view, size_t size, uintptr_t near)
{
	uintptr_t hi = view + size;

	return (view >= near ? view - near : near - view) < LINUX_JUMP_REACH &&
	       (hi >= near ? hi - near : near - hi) < LINUX_JUMP_REACH;
}

/* ---- The code arena: trampolines (codearena.c) ------------------------- */

/* The consumer's code arena, made on first use: its memfd and where it
 * executes. */
int linux_code_info(int *fd, uintptr_t *base, size_t *size);
/* An agent maps it read+execute at the consumer's address. */
int linux_code_attach(int fd, uintptr_t base, size_t size);
bool linux_code_contains(uintptr_t addr);
/* Write trampoline bytes (consumer only); false if addr is not in it. */
bool linux_code_write(uintptr_t addr, const void *bytes, size_t len);
void linux_code_destroy(void);
void linux_code_abandon(void);
/* An agent's descriptor of it (-1: none) and its size, to map it again. */
int linux_code_fd(size_t *size);

/* ---- Traced processes (proc.c, pid.c, inject.c; the consumer) ---------- */

struct linux_agent_block;
struct linux_agent_msg;

#define LINUX_AGENT_NAME "libdtrace-agent.so"

enum { LINUX_PROC_ATTACHING, LINUX_PROC_RUNNING, LINUX_PROC_GONE };

/* A traced process: the `as` handle of port.h's text and module
 * functions for it. */
typedef struct linux_proc {
	pid_t lp_pid;
	int lp_memfd; /* /proc/<pid>/mem */
	int lp_sock;  /* the connection to its agent */
	bool lp_created;
	volatile int lp_state;
	struct linux_agent_block *lp_block; /* in the arena */
	dtrace_provider_id_t lp_prov;	    /* its pid<N> provider */
	pthread_t lp_thread;		    /* its control thread */
	bool lp_thread_started;
	char lp_exe[4096];		    /* the executable, for `a.out` */
	uintptr_t lp_rbrk;		    /* the dynamic linker's breakpoint */
	struct inst_site *lp_hook;	    /* our hook there */
	int lp_why;			    /* why the last description made nothing */
	bool lp_execd;			    /* its agent went with an exec */
	bool lp_dropped;		    /* ... which was reported */
	uint64_t lp_refused;		    /* its refused firings reported */
	uintptr_t lp_jentry;		    /* its agent's jump entry (HELLO) */
	uintptr_t lp_jviews[32];	    /* the code arena's views near its text */
	unsigned lp_njviews;
	bool lp_nojump;			    /* its agent could not quiesce: no jumps */
	int64_t lp_jbusy_until;		    /* a thread ran: no jump asked before (s) */
	char lp_whymsg[256];
	struct linux_proc *lp_next;
} linux_proc_t;

int linux_proc_mem_read(void *as, uintptr_t addr, void *buf, size_t len);
int linux_proc_mem_write(void *as, uintptr_t addr, const void *bytes, size_t len);
linux_proc_t *linux_proc_lookup(pid_t pid);
int linux_proc_adopt(pid_t pid, int sock, bool created, char *errbuf, size_t errlen);
int linux_proc_foreach(int (*fn)(linux_proc_t *, void *), void *arg);
int linux_proc_release_all(void);
int linux_agent_notify(linux_proc_t *p, uint32_t type);
/* Before the first breakpoint is placed in the process (the loader
 * hook's): its agent keeps SIGTRAP unblockable, or dtrace says it cannot. */
void linux_proc_guard(linux_proc_t *p);
/* Take SIGSYS and SIGTRAP out of the masks of the process's threads that
 * block them, with ptrace (inject.c); the main thread too unless asked. */
void linux_proc_unblock_traps(pid_t pid, bool skip_main);

/* One fixed-size message, with up to four descriptors; 0 or an errno
 * (ECONNRESET at end-of-file, ETIMEDOUT after timeout_ms >= 0). */
int linux_agent_send(int sock, const struct linux_agent_msg *m, const int *fds, int nfds);
int linux_agent_recv(int sock, struct linux_agent_msg *m, int *fds, int maxfds, int *nfds,
		     int timeout_ms);

/* pid.c's lock over the engine's tables, for the other providers that
 * make sites in traced processes (usdt.c). */
void linux_inst_lock(bool take);
int linux_pid_init(void);
/* Jump-patched pid probes (jump.c): take inst/'s jump hooks, unless
 * DTRACE_PID_JUMP=0; forget what was scanned of a process's text. */
void linux_jump_init(void);
void linux_jump_fini(void);
void linux_jump_forget(linux_proc_t *p);
int linux_pid_register(linux_proc_t *p);
int linux_pid_unregister(linux_proc_t *p);
void linux_pid_modules_changed(linux_proc_t *p);
int linux_pid_watch_modules(linux_proc_t *p);
void linux_pid_unwatch_modules(linux_proc_t *p);
void linux_pid_process_gone(linux_proc_t *p);
void linux_pid_fini(void);

/* ---- The agent (agent.c, agent_profile.c; inside a traced process) ----- */

void linux_agent_profile_sync(struct linux_agent_block *b);
void linux_agent_profile_stop(void);
void linux_agent_profile_forget(void);
/* Take back the semaphore increments the block records (agent_usdt.c): the
 * consumer died (child false), or in a forked child, which runs untraced
 * (true; the shared records stay the parent's). */
void linux_agent_usdt_release(struct linux_agent_block *b, bool child);
/* The syscall provider in the agent (agent_syscall.c): make the seccomp
 * filters trap what the block's table asks (a SYSCALL message, the end of
 * the -c hold, a module change; with syscalls false, only the signal
 * guard lab_guard asks for, before GO); the calling thread is the agent's own,
 * whose calls never fire; tracing is over (filters stay, calls are made
 * untraced); a forked child forgets it was traced. */
void linux_agent_syscall_sync(struct linux_agent_block *b, bool syscalls);
/* Is sp on the agent's own thread's stack (agent.c)?  Its breakpoints and
 * system calls never fire. */
bool linux_agent_own_stack(uintptr_t sp);
/* Is pc in the agent's own text (agent.c)?  A call from there into a
 * probed function is not the program's. */
bool linux_agent_own_text(uintptr_t pc);
void linux_agent_syscall_thread(void);
void linux_agent_syscall_stop(void);
void linux_agent_syscall_forget(void);
/* Jump-patched probes in the agent (agent_jump.c, agent.c): the function
 * trampolines call, as HELLO tells it; the block's request, done by the
 * agent's thread; a consumer's mappings forgotten when it left. */
void linux_agent_jump_fire(uint64_t *frame, uintptr_t site);
uint64_t linux_agent_jump_entry(void);
void linux_agent_jump_request(struct linux_agent_block *b);
void linux_agent_jump_forget(void);

/* ---- profile/tick provider ----------------------------------------------- */

/* A process was adopted: publish the enabled profile-N probes to it. */
void linux_profile_proc_added(linux_proc_t *p);

int linux_profile_register(void);
/* "profile-97" -> kind 0 (profile) or 1 (tick) and the interval in ns;
 * false if the name is not a valid profile probe name. */
bool linux_profile_parse(const char *name, int *kind, uint64_t *interval);
int linux_profile_unregister(void);

/* ---- syscall provider (syscall.c) ---------------------------------------- */

int linux_syscall_register(void);
int linux_syscall_unregister(void);
/* A process was adopted, or loaded objects: publish the enabled probes. */
void linux_syscall_proc_added(linux_proc_t *p);
void linux_syscall_modules_changed(linux_proc_t *p);

#endif /* DTRACE_PORT_LINUX_IMPL_H */
