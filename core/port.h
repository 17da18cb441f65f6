/*
 * core/port.h: the porting interface.
 *
 * This file is the whole contract between the OS-neutral DTrace framework in
 * core/ and an operating system (port/<os>/) with its processor module
 * (isa/<isa>/).  The core calls nothing else: no OS header, no ISA function,
 * no libc beyond memcpy/memmove/memset/memcmp.  A porter implements every
 * function below in port/<os>/ and links it with the core; nothing here is
 * optional.
 *
 * Context.  Every function says whether it may run in PROBE CONTEXT, the
 * state in which a probe fires: in a trap handler, an interrupt, or (in the
 * Linux user-space host) a signal handler of a traced process.  Functions
 * marked "probe context: yes" must not allocate, must not wait on a lock,
 * must not fault, and must finish in bounded time.  Functions marked "no"
 * are called from the consumer's thread or a timer callback with no probe
 * context active, may sleep, and may take the port's locks.
 *
 * CPUs.  The core keeps per-CPU state (buffers, scratch, fault flags) indexed
 * by a dense CPU id in [0, dtrace_port_ncpus()).  On a kernel this is the
 * processor id.  On the Linux user-space host it is a "CPU slot" that the
 * firing thread owns for the duration of probe context; the real processor
 * for the D variable `cpu` comes from
 * dtrace_port_curthread_value(DTRACE_THR_HWCPU).
 *
 * Errors.  Functions that can fail return 0 on success and a positive errno
 * value (the numbers of <errno.h> on every supported system: EINVAL 22,
 * ENOMEM 12, EBUSY 16, ...; see DTRACE_E* below) on failure, never -1.
 */
#ifndef DTRACE_CORE_PORT_H
#define DTRACE_CORE_PORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t dtrace_cpuid_t;

/* Error numbers shared by every supported system's <errno.h>. */
#define DTRACE_EPERM 1
#define DTRACE_ENOENT 2
#define DTRACE_ESRCH 3
#define DTRACE_EFAULT 14
#define DTRACE_EBUSY 16
#define DTRACE_EEXIST 17
#define DTRACE_ENOMEM 12
#define DTRACE_EACCES 13
#define DTRACE_EINVAL 22
#define DTRACE_EFBIG 27
#define DTRACE_ENOSPC 28
#define DTRACE_E2BIG 7
#define DTRACE_EALREADY 114 /* not shared: the core only passes it back */
#define DTRACE_EBADMSG 74   /* not shared either: shared buffer state is corrupt */
#define DTRACE_ENOTSUP 95

/* ------------------------------------------------------------------------
 * 1. Probe context and cross-calls
 * ------------------------------------------------------------------------
 *
 * dtrace_port_probe_enter() is the door into probe context.  It makes the
 * calling CPU exclusive (kernels: disable interrupts; Linux host: take the
 * thread's CPU slot with a single compare-and-swap, never waiting) and
 * returns its CPU id through *cpu.  It returns false, having changed
 * nothing, if the CPU is already in probe context (recursion) or no slot
 * could be taken; the core counts that as a drop and does not fire.
 *   probe context: yes (it is the entry to it).
 *
 * dtrace_port_probe_exit() leaves probe context; `cookie` is the value
 * *cookie_out received from the matching enter (e.g. the saved interrupt
 * state).  probe context: yes.
 */
bool dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out);
void dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie);

/*
 * Number of CPU ids the core must provide state for: every id that
 * dtrace_port_probe_enter() can return is below this.  Constant for the
 * life of the port.  probe context: yes.
 */
uint32_t dtrace_port_ncpus(void);

/*
 * Run fn(arg) on CPU `cpu` (or on every CPU id when cpu ==
 * DTRACE_CPU_ALL) with that CPU outside probe context and exclusive, and
 * wait for all calls to return.  The core builds dtrace_sync() on this: once
 * a cross-call to all CPUs has returned, no CPU is still inside a probe that
 * started before it.  FreeBSD smp_rendezvous_cpus, NetBSD xc_broadcast +
 * xc_wait, illumos xc_sync; the Linux host runs fn on each idle slot.
 *   probe context: no.
 */
#define DTRACE_CPU_ALL ((dtrace_cpuid_t)-1)
typedef void (*dtrace_xcall_fn_t)(void *arg);
void dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg);

/* ------------------------------------------------------------------------
 * 2. Atomics and barriers
 * ------------------------------------------------------------------------
 * The core uses the compiler's __atomic builtins through core/dtrace_atomic.h
 * and needs nothing from the port here.  A port whose compiler lacks them
 * replaces that one header; the functions it must provide are listed there.
 */

/* ------------------------------------------------------------------------
 * 3. Nofault loads and copies
 * ------------------------------------------------------------------------
 * Every load from an address that D supplied goes through these.  They
 * never fault: a bad address makes them return DTRACEFLT_BADADDR (or
 * DTRACEFLT_BADALIGN, DTRACEFLT_UPRIV, DTRACEFLT_KPRIV as defined in
 * core/dtrace_abi.h) and store the faulting address in *fault_addr, and the
 * core turns that into an ERROR-probe record.  On success they return 0.
 *
 * A port must also refuse, with DTRACEFLT_BADADDR, addresses that are mapped
 * but unsafe to read even with fault protection (device memory and other
 * ranges whose reads have side effects): DTrace calls these toxic ranges.
 * The core cannot know them; the port checks them here.
 *
 * `space` says whose address it is: DTRACE_AS_KERNEL for the kernel's (or,
 * on the Linux host, the traced process's own memory), DTRACE_AS_USER for
 * the current thread's user address space (copyin, uregs, ustack).  On the
 * Linux host the two are the same mapping.
 *
 * Kernel ports implement these with the per-CPU nofault flag their trap
 * handler checks (FreeBSD dtrace_fuword8..64, NetBSD the same, illumos
 * dtrace_fuword* and the CPU_DTRACE_NOFAULT flag); the Linux host with a
 * per-slot landing pad that its SIGSEGV/SIGBUS handler resumes at.
 *   probe context: yes, all of them.
 */
#define DTRACE_AS_KERNEL 0
#define DTRACE_AS_USER 1

/* Load 1, 2, 4 or 8 bytes from `addr` (which the core has checked for
 * alignment) into *val, zero-extended. */
int dtrace_port_load(int space, uintptr_t addr, size_t size, uint64_t *val, uintptr_t *fault_addr);

/* Copy `len` bytes from `src` to the core's buffer `dst`. */
int dtrace_port_copyin(int space, uintptr_t src, void *dst, size_t len, uintptr_t *fault_addr);

/* Copy at most `len` bytes of the NUL-terminated string at `src` to `dst`,
 * stopping after the NUL; *copied receives the bytes copied (including the
 * NUL if one was found within `len`). */
int dtrace_port_copyinstr(int space, uintptr_t src, char *dst, size_t len, size_t *copied,
			  uintptr_t *fault_addr);

/* Copy `len` bytes from the core's `src` to `dst` in the current thread's
 * user address space (the destructive copyout()/copyoutstr()). */
int dtrace_port_copyout(const void *src, uintptr_t dst, size_t len, uintptr_t *fault_addr);

/* ------------------------------------------------------------------------
 * 4. Memory patching
 * ------------------------------------------------------------------------
 * Write `len` bytes at `addr` in text (or another protected mapping) of
 * address space `as` and make every CPU's instruction fetch see them before
 * returning (on riscv, where fence.i syncs only the local hart, that means a
 * cross-call running fence.i on every CPU).  `as` is NULL for the kernel (the Linux host: the calling
 * process) or a port-defined handle for another process.  Providers in
 * port/ use this with the patch values of isa/<isa>/ to place and remove
 * probes; the core never calls it.  FreeBSD: disable_wp around the store on
 * x86, arm64_get_writable_addr + cpu_icache_sync_range on arm64; NetBSD
 * x86_patch_window_open/close; illumos a plain store; Linux host
 * mprotect or /proc/<pid>/mem plus __builtin___clear_cache.
 *   probe context: no.
 */
int dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len);

/*
 * Read `len` bytes of text (or any mapped memory) at `addr` in address
 * space `as` (NULL as above) into buf; an unmapped byte fails with
 * DTRACE_EFAULT.  Instruction providers decode what they will patch with
 * it.  FreeBSD/NetBSD/illumos: memcpy of kernel text; Linux host: memcpy,
 * or pread of /proc/<pid>/mem for another process.
 *   probe context: no.
 */
int dtrace_port_text_read(void *as, uintptr_t addr, void *buf, size_t len);

/*
 * Executable memory for out-of-line copies of probed instructions
 * (trampolines), `len` bytes in address space `as`, returned as the
 * address where it executes; it is written with dtrace_port_text_write.
 * Freed only with the address space (or, for the kernel, never while the
 * module is loaded): a thread may still be running a trampoline after its
 * probe is gone.  DTRACE_ENOMEM when none is left.  FreeBSD kmem with
 * VM_PROT_EXECUTE (as kinst); illumos and NetBSD executable kernel
 * memory; Linux host a shared executable mapping the agent maps in the
 * traced process.
 *   probe context: no.
 */
int dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr);

/* ------------------------------------------------------------------------
 * 5. Module enumeration
 * ------------------------------------------------------------------------
 * Walk the loaded modules of address space `as` (NULL: the kernel, or on the
 * Linux host the calling process), calling cb once per module; a non-zero
 * return from cb stops the walk and is returned.  Then walk one module's
 * function symbols.  Providers use these to create probes; the consumer
 * symbolizes stacks with the same data.  FreeBSD linker_file_foreach +
 * linker_file_function_listall; NetBSD module list + ksyms_mod_foreach;
 * illumos the `modules` list under mod_lock; Linux dl_iterate_phdr + libelf.
 *   probe context: no.
 */
typedef struct dtrace_port_module {
	const char *dpm_name;  /* short name: "libc.so.6", "kernel", "zfs" */
	const char *dpm_path;  /* file it was loaded from, or NULL */
	uintptr_t dpm_base;    /* load bias added to its symbol values */
	uintptr_t dpm_text;    /* start of its text */
	size_t dpm_textsize;   /* size of its text */
	void *dpm_port;        /* the port's own handle */
} dtrace_port_module_t;

typedef int (*dtrace_port_module_fn_t)(const dtrace_port_module_t *mod, void *arg);
typedef int (*dtrace_port_symbol_fn_t)(const char *name, uintptr_t addr, size_t size, void *arg);

int dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg);
int dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg);

/* ------------------------------------------------------------------------
 * 6. Time
 * ------------------------------------------------------------------------
 * dtrace_port_gethrtime: monotonic nanoseconds, never going backwards on a
 * CPU (the D `timestamp`).  dtrace_port_getwalltime: nanoseconds since the
 * Unix epoch (`walltimestamp`).  probe context: yes.
 */
uint64_t dtrace_port_gethrtime(void);
uint64_t dtrace_port_getwalltime(void);

/* ------------------------------------------------------------------------
 * 7. The current thread
 * ------------------------------------------------------------------------
 * Facts about the thread that fired the probe.  dtrace_port_curthread_value
 * returns the integer facts named by dtrace_thread_fact_t; execname is
 * returned as a pointer to a NUL-terminated string that stays valid for the
 * rest of probe context (the core copies it).  DTRACE_THR_KEY is a non-zero
 * value unique among live threads: the key of `self->` variables.
 *
 * uid and gid are the EFFECTIVE ids (DTrace's `uid`/`gid` are the
 * credential's cr_uid/cr_gid).  When a probe fires in interrupt context the
 * facts are, as in DTrace, those of no thread (pid and tid 0, errno 0, an
 * empty user stack) and the KEY differs from the interrupted thread's
 * (DTrace folds the interrupt level into it), so an interrupt never sees the
 * interrupted thread's `self->` variables.
 *   probe context: yes.
 */
typedef enum dtrace_thread_fact {
	DTRACE_THR_PID,	       /* process id */
	DTRACE_THR_TID,	       /* thread id */
	DTRACE_THR_PPID,       /* parent process id */
	DTRACE_THR_UID,	       /* effective user id */
	DTRACE_THR_GID,	       /* effective group id */
	DTRACE_THR_ERRNO,      /* errno of the last system call, or 0 */
	DTRACE_THR_KEY,	       /* unique thread key for thread-local variables */
	DTRACE_THR_VTIME,      /* nanoseconds this thread has run on CPU */
	DTRACE_THR_HWCPU,      /* the processor it runs on: the D `cpu` */
	DTRACE_THR_CURTHREAD,  /* the OS's pointer for the thread (`curthread`) */
	DTRACE_THR_NFACTS
} dtrace_thread_fact_t;

uint64_t dtrace_port_curthread_value(dtrace_thread_fact_t fact);
const char *dtrace_port_curthread_execname(void);

/*
 * dtrace_port_curproc_progenyof: 1 if the current process is process `pid`
 * or descends from it, else 0 (D's progenyof()).  DTrace walks the chain of
 * parents up to the root, so every process is progeny of the first process
 * and of the root's pid 0; a parent the port cannot see ends the chain.
 *   probe context: yes.
 */
int dtrace_port_curproc_progenyof(uint64_t pid);

/*
 * dtrace_port_dev_major, dtrace_port_dev_minor: the major and the minor
 * number of a device number as this kernel encodes its dev_t (D's
 * getmajor() and getminor(); illumos' 64-bit dev_t has the major in its
 * high 32 bits and the minor in its low 32, other kernels have their own
 * major() and minor()).
 *   probe context: yes (arithmetic only).
 */
uint64_t dtrace_port_dev_major(uint64_t dev);
uint64_t dtrace_port_dev_minor(uint64_t dev);

/* ------------------------------------------------------------------------
 * 8. Stacks, arguments and registers
 * ------------------------------------------------------------------------
 * The port delegates to isa/<isa>/ for the frame layout.
 *
 * dtrace_port_getpcstack: fill up to `max` program counters of the kernel
 * (Linux host: the traced process's) stack at the probe site, skipping the
 * `aframes` artificial frames that the probe's provider added; return the
 * number filled.  dtrace_port_getustack: the same for the current thread's
 * user stack; pcs[0] receives the pid (DTrace's ustack record layout) and the
 * return counts the pcs after it.  dtrace_port_getarg: argument `n` of the
 * probed function when the provider passed fewer (arg5 and beyond).
 * dtrace_port_getreg: user register `reg` (uregs[]) of the interrupted
 * thread, with *ok false if there is no such register.
 *   probe context: yes, all of them.
 */
int dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes);
int dtrace_port_getustack(uint64_t *pcs, int max);
int dtrace_port_getstackdepth(int aframes);
int dtrace_port_getustackdepth(void);
uint64_t dtrace_port_getarg(int n, int aframes);
uint64_t dtrace_port_getreg(unsigned reg, bool *ok);
uint64_t dtrace_port_caller(int aframes);  /* the D `caller` */
uint64_t dtrace_port_ucaller(void);        /* the D `ucaller` */

/* ------------------------------------------------------------------------
 * 9. Destructive actions acting on the current thread or system
 * ------------------------------------------------------------------------
 * Only reached when the consumer allowed destructive actions.  raise and
 * stop are posted, not performed in place: the port delivers them when the
 * thread leaves probe context.  chill spins for `ns` nanoseconds.  panic
 * and breakpoint are the kernel's own (the Linux host aborts or raises
 * SIGTRAP in the traced process).
 *   probe context: yes, all of them.
 */
void dtrace_port_raise(int sig);
void dtrace_port_stop(void);
void dtrace_port_chill(uint64_t ns);
void dtrace_port_breakpoint(void);
void dtrace_port_panic(const char *msg);

/* ------------------------------------------------------------------------
 * 10. Memory and locks outside probe context
 * ------------------------------------------------------------------------
 * dtrace_port_zalloc returns zeroed memory or NULL when none is available
 * now (it must not sleep for long: buffer sizing retries with less).  Memory
 * handed out here is readable in every context the core runs in (the Linux
 * host allocates from the shared arena) but written ONLY outside probe
 * context, by the address space that allocated it: ECBs, actions, DIFOs
 * and their tables, predicates, probes, providers, states, enablings.
 * Probe context must never write it.  Where probes fire in other address
 * spaces that map the port's memory (the Linux host: traced processes),
 * the port maps it read-only there, so that nothing the core follows
 * without checking can be rewritten by a process it traces.
 * dtrace_port_free takes the size given at allocation.
 *
 * dtrace_port_zalloc_probe and dtrace_port_free_probe are the same for the
 * memory that probe context writes: buffers and their headers,
 * speculations, dynamic variables, global variables' storage, per-CPU
 * state and the counters of errors and drops.  On the Linux host every
 * traced process can write it at will, so the core treats what it reads
 * there as untrusted: an offset, a chain pointer or a state word is
 * bounded against what dtrace_port_zalloc memory (or the ledger below)
 * says before use, and a value out of bounds is counted as a drop or an
 * error, never followed.  Nothing the core must trust -- a pointer it
 * follows without a check, a size -- may be kept here.
 *
 * dtrace_port_zalloc_private and dtrace_port_free_private are the same for
 * memory that only the calling address space can read and write.  The core
 * keeps there the little it must be able to trust about the shared memory
 * -- where each buffer is and how big -- so that the control operations
 * never follow a pointer or a size a traced process could have rewritten.
 *
 * A kernel port returns ordinary kernel memory for all three kinds: no
 * other address space maps it.  The Linux host: dtrace_port_zalloc from
 * the arena's part that agents map read-only (a sealed memfd),
 * dtrace_port_zalloc_probe from its writable part, the private kind from
 * its own heap.
 *
 * The core takes two locks, always in the order PROVIDER then FRAMEWORK
 * (the same pair as illumos dtrace_provider_lock and dtrace_lock); a port
 * implements them with the OS's sleepable mutex.  dtrace_port_lock_held is
 * for assertions.
 *   probe context: no, all of them.
 */
void *dtrace_port_zalloc(size_t size);
void dtrace_port_free(void *ptr, size_t size);
void *dtrace_port_zalloc_probe(size_t size);
void dtrace_port_free_probe(void *ptr, size_t size);
void *dtrace_port_zalloc_private(size_t size);
void dtrace_port_free_private(void *ptr, size_t size);

typedef enum dtrace_lockid {
	DTRACE_LOCK_PROVIDER,
	DTRACE_LOCK_FRAMEWORK,
	DTRACE_NLOCKS
} dtrace_lockid_t;

void dtrace_port_lock(dtrace_lockid_t lock);
void dtrace_port_unlock(dtrace_lockid_t lock);
bool dtrace_port_lock_held(dtrace_lockid_t lock);

/* ------------------------------------------------------------------------
 * 11. Periodic timers
 * ------------------------------------------------------------------------
 * Call fn(arg) every `interval_ns` nanoseconds outside probe context until
 * cancelled: the core's dynamic-variable and speculation cleaners and the
 * deadman.  The `profile` and `tick` providers belong to each port and use
 * the OS's own per-CPU timers.  dtrace_port_timer_cancel waits for a call in
 * progress to return.  FreeBSD callout, NetBSD callout, illumos cyclic_add,
 * Linux host timer_create on a helper thread.
 *   probe context: no.
 */
typedef struct dtrace_port_timer dtrace_port_timer_t;
dtrace_port_timer_t *dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg);
void dtrace_port_timer_cancel(dtrace_port_timer_t *timer);

/* ------------------------------------------------------------------------
 * 12. Diagnostics
 * ------------------------------------------------------------------------
 * Print a message on the system console or the host's standard error, for
 * events a consumer cannot see (a provider that failed to unregister).
 *   probe context: no.
 */
void dtrace_port_log(const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_CORE_PORT_H */
