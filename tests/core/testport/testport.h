/*
 * tests/core/testport/testport.h: controls of the deterministic test port.
 *
 * The test port (library `dtrace_testport`) implements every function of
 * core/port.h for unit tests of the core, with nothing left to the host's
 * whims: CPUs are simulated and the test chooses which one is "current", the
 * clock only moves when the test moves it, cross-calls run in the caller,
 * timers fire when the test fires them, and every nofault load, copy,
 * allocation and lock is observable and can be made to fail.
 *
 * Nofault loads read the test process's real memory, so a test hands the
 * core pointers to its own buffers.  Addresses below TESTPORT_NULL_PAGE
 * always fault with DTRACEFLT_BADADDR (a NULL dereference); any other range
 * faults only when the test injects a fault there.
 *
 * The "current CPU" and the current thread's facts are per host thread
 * (_Thread_local), so a stress test may run one pthread per simulated CPU;
 * everything else is global and meant to be set up before such threads run.
 */
#ifndef DTRACE_TESTPORT_H
#define DTRACE_TESTPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtrace_abi.h"
#include "port.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESTPORT_MAXCPUS 64
#define TESTPORT_NULL_PAGE 4096
#define TESTPORT_MAXFAULTS 16
#define TESTPORT_STACKMAX 64
#define TESTPORT_ARGMAX 32
#define TESTPORT_REGMAX 64
#define TESTPORT_MAXTIMERS 32
#define TESTPORT_MAXMODULES 16

/* Back to the initial state: 1 CPU, CPU 0 current, clocks at 0, no faults,
 * no failing allocations, default thread facts, no timers, no modules.
 * Aborts if allocations are still outstanding when `check_leaks` is true. */
void testport_reset(bool check_leaks);

/* --- CPUs and probe context ----------------------------------------------- */
void testport_set_ncpus(uint32_t ncpus); /* 1..TESTPORT_MAXCPUS */
void testport_set_cpu(dtrace_cpuid_t cpu); /* this host thread's current CPU */
dtrace_cpuid_t testport_cpu(void);
bool testport_cpu_busy(dtrace_cpuid_t cpu);     /* inside probe context */
uint64_t testport_probe_refusals(void);         /* enters refused (recursion) */
uint64_t testport_xcalls(void);                 /* dtrace_port_xcall() calls */
/* CPU the function run by the current cross-call is running "on". */
dtrace_cpuid_t testport_xcall_cpu(void);

/* --- Time ------------------------------------------------------------------- */
void testport_set_time(uint64_t ns);     /* dtrace_port_gethrtime() */
void testport_advance_time(uint64_t ns); /* moves both clocks */
void testport_set_walltime(uint64_t ns); /* dtrace_port_getwalltime() */

/* --- The current thread ----------------------------------------------------- */
typedef struct testport_thread {
	uint64_t tt_fact[DTRACE_THR_NFACTS]; /* by dtrace_thread_fact_t */
	char tt_execname[64];
	/* the parent's ancestors, nearest first (progenyof()) */
	uint64_t tt_ancestors[4];
	unsigned tt_nancestors;
} testport_thread_t;

/* Facts of this host thread's simulated current thread.  Defaults: pid 100,
 * tid 101, ppid 1, uid 1000, gid 1000, errno 0, key 0x1000 + tid, vtime 0,
 * hwcpu = current CPU, curthread 0xc0ffee00, execname "testproc". */
testport_thread_t *testport_thread(void);
/* Switch to another simulated thread: sets tid, key (0x1000 + tid) and
 * curthread (0xc0ffee00 + tid), keeping the rest. */
void testport_switch_thread(uint64_t tid);

/* --- Nofault loads and copies ----------------------------------------------- */
/* Every load/copy touching [base, base + len) in address space `space`
 * (DTRACE_AS_KERNEL, DTRACE_AS_USER, or -1 for both) fails with `fault`
 * (a DTRACEFLT_* code) and reports the first faulting byte's address. */
void testport_fault_range(int space, uintptr_t base, size_t len, int fault);
/* The nth nofault call from now (1 = the next one) fails with `fault` at its
 * source address, whatever the address.  0 disables. */
void testport_fault_nth(uint64_t nth, int fault);
void testport_fault_clear(void);
uint64_t testport_nofault_calls(void); /* loads, copyins, copyinstrs, copyouts */
/* Strict mode, for fuzzing: nofault loads succeed only inside ranges the
 * test allowed or live dtrace_port_zalloc() memory; copyout and text writes
 * only inside allowed ranges.  Off by default (all memory is real). */
void testport_set_strict(bool strict);
void testport_allow_range(uintptr_t base, size_t len);
uint64_t testport_faults(void);        /* of which failed */
uintptr_t testport_last_fault_addr(void); /* address the last failure reported */

/* --- Allocation ------------------------------------------------------------- */
/* The nth dtrace_port_zalloc() from now (1 = the next) returns NULL; 0 disables.
 * testport_alloc_fail_from(n) makes the nth and every later one fail. */
void testport_alloc_fail_nth(uint64_t nth);
void testport_alloc_fail_from(uint64_t nth);
uint64_t testport_alloc_count(void);       /* successful allocations */
uint64_t testport_alloc_outstanding(void); /* allocations not yet freed, private ones too */
size_t testport_alloc_bytes(void);         /* bytes not yet freed */
/* dtrace_port_zalloc_private(): counted apart from the shared allocations
 * above (so their numbering is unchanged) and failing while `fail` is set. */
void testport_private_alloc_fail(bool fail);
uint64_t testport_private_alloc_count(void); /* successful private allocations */

/* --- Locks ------------------------------------------------------------------ */
bool testport_lock_is_held(dtrace_lockid_t lock);
uint64_t testport_lock_acquisitions(dtrace_lockid_t lock);

/* --- Timers ------------------------------------------------------------------ */
size_t testport_timers_active(void);
/* Fire every active timer whose interval is `interval_ns` (0: all of them)
 * once; returns how many ran. */
size_t testport_fire_timers(uint64_t interval_ns);
uint64_t testport_timer_interval(size_t i); /* of the ith active timer */

/* --- Stacks, arguments, registers ------------------------------------------ */
/* The raw kernel stack at the probe site, innermost first, including the
 * provider's artificial frames (dtrace_port_getpcstack skips `aframes`);
 * `caller` is frame aframes + 1. */
void testport_set_pcstack(const uint64_t *pcs, int n);
/* The user stack, innermost first (dtrace_port_getustack puts the pid
 * first); `ucaller` is frame 1. */
void testport_set_ustack(const uint64_t *pcs, int n);
void testport_set_args(const uint64_t *args, int n); /* dtrace_port_getarg(i) */
void testport_set_regs(const uint64_t *regs, unsigned n);
/* Make stack walks fail: getpcstack/getustack/depth return 0 after the
 * given number of frames (-1: never fail). */
void testport_set_stack_limit(int frames);

/* --- Destructive actions and diagnostics ------------------------------------ */
typedef struct testport_destructive {
	int td_raised;		/* last dtrace_port_raise() signal, 0 if none */
	unsigned td_raises;
	unsigned td_stops;
	unsigned td_breakpoints;
	unsigned td_panics;
	uint64_t td_chilled_ns; /* total of chill() requests */
	char td_panicmsg[256];
} testport_destructive_t;
const testport_destructive_t *testport_destructive(void);
const char *testport_last_log(void); /* last dtrace_port_log() message */
uint64_t testport_text_writes(void);

/* --- Modules ----------------------------------------------------------------- */
typedef struct testport_symbol {
	const char *ts_name;
	uintptr_t ts_addr;
	size_t ts_size;
} testport_symbol_t;
/* Register a module for dtrace_port_module_iter(); strings and the symbol
 * array must outlive the test. */
void testport_add_module(const dtrace_port_module_t *mod, const testport_symbol_t *syms,
			 size_t nsyms);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_TESTPORT_H */
