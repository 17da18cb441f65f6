/*
 * tests/core/testport/testport.c: a deterministic implementation of
 * core/port.h for the core's unit tests.  See testport.h for the model.
 *
 * This is test code and runs on the host: it may use libc freely.  It is
 * strict where the port contract is strict (a lock taken twice, a free with
 * the wrong size, an unknown CPU id abort the test) so core bugs surface as
 * failures rather than as quiet misbehaviour.
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testport.h"

static void
tp_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "testport: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/* --- State ---------------------------------------------------------------- */

typedef struct tp_fault {
	int tf_space; /* -1: both */
	uintptr_t tf_base;
	size_t tf_len;
	int tf_fault;
} tp_fault_t;

struct dtrace_port_timer {
	bool tt_active;
	uint64_t tt_interval;
	void (*tt_fn)(void *);
	void *tt_arg;
};

typedef struct tp_module {
	dtrace_port_module_t tm_mod;
	const testport_symbol_t *tm_syms;
	size_t tm_nsyms;
} tp_module_t;

static uint32_t tp_ncpus = 1;
static volatile int tp_busy[TESTPORT_MAXCPUS];
/* A cross-call waits for the CPU: like a pending interrupt, it keeps new
 * probes off the CPU until it has run. */
static volatile int tp_xcall_wanted[TESTPORT_MAXCPUS];
static uint64_t tp_refusals;
static uint64_t tp_nxcalls;
static dtrace_cpuid_t tp_xcall_target = DTRACE_CPU_ALL;

static uint64_t tp_hrtime;
static uint64_t tp_walltime;

static _Thread_local dtrace_cpuid_t tp_curcpu;
static _Thread_local int tp_entered; /* this host thread is in probe context */
static _Thread_local bool tp_thread_init;
static _Thread_local testport_thread_t tp_thread;

static tp_fault_t tp_faults[TESTPORT_MAXFAULTS];
static int tp_nfaults;
static uint64_t tp_fault_nth_at; /* absolute call number that fails, 0: none */
static int tp_fault_nth_code;
static uint64_t tp_nofault_calls;
static uint64_t tp_nfaulted;

static uint64_t tp_alloc_calls;
static uint64_t tp_alloc_fail_at;
static bool tp_alloc_fail_after;
static uint64_t tp_alloc_ok;
static uint64_t tp_alloc_live;
static size_t tp_alloc_live_bytes;
static bool tp_private_fail;
static uint64_t tp_private_ok;

static bool tp_lock_held[DTRACE_NLOCKS];
static uint64_t tp_lock_count[DTRACE_NLOCKS];

static struct dtrace_port_timer tp_timers[TESTPORT_MAXTIMERS];

static uint64_t tp_pcstack[TESTPORT_STACKMAX];
static int tp_npcstack;
static uint64_t tp_ustack[TESTPORT_STACKMAX];
static int tp_nustack;
static int tp_stack_limit = -1;
static uint64_t tp_args[TESTPORT_ARGMAX];
static int tp_nargs;
static uint64_t tp_regs[TESTPORT_REGMAX];
static unsigned tp_nregs;

static testport_destructive_t tp_destr;
static char tp_log[512];
static uint64_t tp_ntextwrites;

static tp_module_t tp_modules[TESTPORT_MAXMODULES];
static size_t tp_nmodules;

static void
tp_thread_defaults(void)
{
	memset(&tp_thread, 0, sizeof(tp_thread));
	tp_thread.tt_fact[DTRACE_THR_PID] = 100;
	tp_thread.tt_fact[DTRACE_THR_TID] = 101;
	tp_thread.tt_fact[DTRACE_THR_PPID] = 1;
	tp_thread.tt_fact[DTRACE_THR_UID] = 1000;
	tp_thread.tt_fact[DTRACE_THR_GID] = 1000;
	tp_thread.tt_fact[DTRACE_THR_ERRNO] = 0;
	tp_thread.tt_fact[DTRACE_THR_KEY] = 0x1000 + 101;
	tp_thread.tt_fact[DTRACE_THR_VTIME] = 0;
	tp_thread.tt_fact[DTRACE_THR_HWCPU] = UINT64_MAX; /* follow the current CPU */
	tp_thread.tt_fact[DTRACE_THR_CURTHREAD] = 0xc0ffee00u + 101;
	snprintf(tp_thread.tt_execname, sizeof(tp_thread.tt_execname), "testproc");
	tp_thread.tt_ancestors[0] = 0; /* the parent is pid 1, whose parent is the root */
	tp_thread.tt_nancestors = 1;
	tp_thread_init = true;
}

testport_thread_t *
testport_thread(void)
{
	if (!tp_thread_init)
		tp_thread_defaults();
	return &tp_thread;
}

void
testport_switch_thread(uint64_t tid)
{
	testport_thread_t *t = testport_thread();

	t->tt_fact[DTRACE_THR_TID] = tid;
	t->tt_fact[DTRACE_THR_KEY] = 0x1000 + tid;
	t->tt_fact[DTRACE_THR_CURTHREAD] = 0xc0ffee00u + tid;
}

void
testport_reset(bool check_leaks)
{
	if (check_leaks && tp_alloc_live != 0)
		tp_die("%llu allocations (%zu bytes) still outstanding",
		       (unsigned long long)tp_alloc_live, tp_alloc_live_bytes);
	for (int i = 0; i < DTRACE_NLOCKS; i++) {
		if (tp_lock_held[i])
			tp_die("lock %d still held at reset", i);
		tp_lock_count[i] = 0;
	}
	tp_ncpus = 1;
	memset((void *)tp_busy, 0, sizeof(tp_busy));
	tp_refusals = tp_nxcalls = 0;
	tp_xcall_target = DTRACE_CPU_ALL;
	tp_hrtime = tp_walltime = 0;
	tp_curcpu = 0;
	tp_thread_defaults();
	testport_fault_clear();
	tp_nofault_calls = tp_nfaulted = 0;
	tp_alloc_calls = tp_alloc_fail_at = 0;
	tp_alloc_fail_after = false;
	tp_alloc_ok = 0;
	tp_private_fail = false;
	tp_private_ok = 0;
	memset(tp_timers, 0, sizeof(tp_timers));
	tp_npcstack = tp_nustack = tp_nargs = 0;
	tp_nregs = 0;
	tp_stack_limit = -1;
	memset(&tp_destr, 0, sizeof(tp_destr));
	tp_log[0] = '\0';
	tp_ntextwrites = 0;
	tp_nmodules = 0;
	testport_set_strict(false);
}

/* --- CPUs, probe context, cross-calls -------------------------------------- */

void
testport_set_ncpus(uint32_t ncpus)
{
	if (ncpus == 0 || ncpus > TESTPORT_MAXCPUS)
		tp_die("bad CPU count %u", ncpus);
	tp_ncpus = ncpus;
	if (tp_curcpu >= ncpus)
		tp_curcpu = 0;
}

void
testport_set_cpu(dtrace_cpuid_t cpu)
{
	if (cpu >= tp_ncpus)
		tp_die("CPU %u out of range (%u CPUs)", cpu, tp_ncpus);
	tp_curcpu = cpu;
}

dtrace_cpuid_t
testport_cpu(void)
{
	return tp_curcpu;
}

bool
testport_cpu_busy(dtrace_cpuid_t cpu)
{
	return cpu < TESTPORT_MAXCPUS && tp_busy[cpu];
}

uint64_t
testport_probe_refusals(void)
{
	return tp_refusals;
}

uint64_t
testport_xcalls(void)
{
	return tp_nxcalls;
}

dtrace_cpuid_t
testport_xcall_cpu(void)
{
	return tp_xcall_target;
}

bool
dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out)
{
	dtrace_cpuid_t c = tp_curcpu;

	if (__atomic_load_n(&tp_xcall_wanted[c], __ATOMIC_ACQUIRE) ||
	    !__atomic_compare_exchange_n(&tp_busy[c], &(int){0}, 1, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		__atomic_add_fetch(&tp_refusals, 1, __ATOMIC_RELAXED);
		return false;
	}
	*cpu = c;
	*cookie_out = 0x5a5a0000u | c; /* checked on exit */
	tp_entered++;
	return true;
}

void
dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie)
{
	if (cpu >= tp_ncpus || !tp_busy[cpu])
		tp_die("probe_exit on CPU %u that is not in probe context", cpu);
	if (cookie != (0x5a5a0000u | cpu))
		tp_die("probe_exit on CPU %u with a foreign cookie %#lx", cpu,
		       (unsigned long)cookie);
	tp_entered--;
	__atomic_store_n(&tp_busy[cpu], 0, __ATOMIC_RELEASE);
}

uint32_t
dtrace_port_ncpus(void)
{
	return tp_ncpus;
}

static void
tp_xcall_one(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	dtrace_cpuid_t saved = tp_curcpu;

	/* Never from probe context.  A target in probe context (another host
	 * thread playing that CPU) is waited for, as a kernel's cross-call waits
	 * for the CPU to take the interrupt; it then stays exclusive while fn
	 * runs: a probe entered from fn would be refused.  A target busy for
	 * seconds is a test that left it busy. */
	if (tp_entered)
		tp_die("cross-call to CPU %u from probe context", cpu);
	__atomic_add_fetch(&tp_xcall_wanted[cpu], 1, __ATOMIC_RELEASE);
	for (unsigned long spins = 0;
	     !__atomic_compare_exchange_n(&tp_busy[cpu], &(int){0}, 1, false, __ATOMIC_ACQUIRE,
					  __ATOMIC_RELAXED);
	     spins++) {
		if (spins > 50000000ul)
			tp_die("cross-call to CPU %u: it never leaves probe context", cpu);
		sched_yield();
	}
	__atomic_sub_fetch(&tp_xcall_wanted[cpu], 1, __ATOMIC_RELEASE);
	tp_curcpu = cpu;
	tp_xcall_target = cpu;
	fn(arg);
	tp_xcall_target = DTRACE_CPU_ALL;
	tp_curcpu = saved;
	__atomic_store_n(&tp_busy[cpu], 0, __ATOMIC_RELEASE);
}

void
dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	tp_nxcalls++;
	if (cpu == DTRACE_CPU_ALL) {
		for (dtrace_cpuid_t c = 0; c < tp_ncpus; c++)
			tp_xcall_one(c, fn, arg);
		return;
	}
	if (cpu >= tp_ncpus)
		tp_die("cross-call to unknown CPU %u", cpu);
	tp_xcall_one(cpu, fn, arg);
}

/* --- Nofault loads ---------------------------------------------------------- */

void
testport_fault_range(int space, uintptr_t base, size_t len, int fault)
{
	if (tp_nfaults == TESTPORT_MAXFAULTS)
		tp_die("too many fault ranges");
	tp_faults[tp_nfaults++] = (tp_fault_t){space, base, len, fault};
}

void
testport_fault_nth(uint64_t nth, int fault)
{
	tp_fault_nth_at = nth == 0 ? 0 : tp_nofault_calls + nth;
	tp_fault_nth_code = fault;
}

void
testport_fault_clear(void)
{
	tp_nfaults = 0;
	tp_fault_nth_at = 0;
}

uint64_t
testport_nofault_calls(void)
{
	return tp_nofault_calls;
}

uint64_t
testport_faults(void)
{
	return tp_nfaulted;
}

/*
 * Strict mode (fuzzing): only memory the test allowed, or memory handed out
 * by dtrace_port_zalloc (reads only), exists; everything else faults.
 */
typedef struct tp_alloc_hdr {
	size_t th_size;
	struct tp_alloc_hdr *th_prev, *th_next;
	uint64_t th_kind; /* TP_KIND_*: which allocator's free must take it */
} tp_alloc_hdr_t;

#define TP_KIND_SHARED 0 /* dtrace_port_zalloc: probe context only reads it */
#define TP_KIND_PROBE 1	 /* dtrace_port_zalloc_probe: probe context writes it */

static bool tp_strict;
static struct {
	uintptr_t base;
	size_t len;
} tp_allowed[TESTPORT_MAXFAULTS];
static int tp_nallowed;
static tp_alloc_hdr_t tp_allocs = {0, &tp_allocs, &tp_allocs, 0};

void
testport_set_strict(bool strict)
{
	tp_strict = strict;
	if (!strict)
		tp_nallowed = 0;
}

void
testport_allow_range(uintptr_t base, size_t len)
{
	if (tp_nallowed == TESTPORT_MAXFAULTS)
		tp_die("too many allowed ranges");
	tp_allowed[tp_nallowed].base = base;
	tp_allowed[tp_nallowed].len = len;
	tp_nallowed++;
}

/* Whether [addr, addr + len) lies in memory strict mode lets exist. */
static bool
tp_strict_ok(uintptr_t addr, size_t len, bool write)
{
	for (int i = 0; i < tp_nallowed; i++) {
		if (addr >= tp_allowed[i].base && len <= tp_allowed[i].len &&
		    addr - tp_allowed[i].base <= tp_allowed[i].len - len)
			return true;
	}
	if (write)
		return false;
	for (tp_alloc_hdr_t *h = tp_allocs.th_next; h != &tp_allocs; h = h->th_next) {
		uintptr_t b = (uintptr_t)(h + 1);
		if (addr >= b && len <= h->th_size && addr - b <= h->th_size - len)
			return true;
	}
	return false;
}

/* Fault code for byte `addr`, or 0 when it may be read. */
static int
tp_byte_fault(int space, uintptr_t addr)
{
	if (addr < TESTPORT_NULL_PAGE)
		return DTRACEFLT_BADADDR;
	if (tp_strict && !tp_strict_ok(addr, 1, false))
		return DTRACEFLT_BADADDR;
	for (int i = 0; i < tp_nfaults; i++) {
		const tp_fault_t *f = &tp_faults[i];
		if ((f->tf_space == -1 || f->tf_space == space) && addr - f->tf_base < f->tf_len)
			return f->tf_fault;
	}
	return 0;
}

/* First faulting byte of [addr, addr + len), scanning upward. */
static int
tp_range_fault(int space, uintptr_t addr, size_t len, uintptr_t *where)
{
	int f;

	if (len == 0)
		return 0;
	if (addr + len - 1 < addr) { /* wraps around the address space */
		*where = addr;
		return DTRACEFLT_BADADDR;
	}
	/* Cheap common case: entirely above the NULL page and no ranges. */
	if (tp_nfaults == 0 && addr >= TESTPORT_NULL_PAGE &&
	    (!tp_strict || tp_strict_ok(addr, len, false)))
		return 0;
	for (size_t i = 0; i < len; i++) {
		if ((f = tp_byte_fault(space, addr + i)) != 0) {
			*where = addr + i;
			return f;
		}
	}
	return 0;
}

/* Count a nofault call; return the injected fault if this is the chosen one. */
static int
tp_count_call(void)
{
	uint64_t n = __atomic_add_fetch(&tp_nofault_calls, 1, __ATOMIC_RELAXED);

	if (tp_fault_nth_at != 0 && n == tp_fault_nth_at)
		return tp_fault_nth_code;
	return 0;
}

static uintptr_t tp_last_fault_addr;

uintptr_t
testport_last_fault_addr(void)
{
	return tp_last_fault_addr;
}

static int
tp_fail(int fault, uintptr_t addr, uintptr_t *fault_addr)
{
	__atomic_add_fetch(&tp_nfaulted, 1, __ATOMIC_RELAXED);
	tp_last_fault_addr = addr;
	if (fault_addr != NULL)
		*fault_addr = addr;
	return fault;
}

static void
tp_check_space(int space)
{
	if (space != DTRACE_AS_KERNEL && space != DTRACE_AS_USER)
		tp_die("unknown address space %d", space);
}

int
dtrace_port_load(int space, uintptr_t addr, size_t size, uint64_t *val, uintptr_t *fault_addr)
{
	uintptr_t where;
	int f;

	tp_check_space(space);
	*val = 0;
	if ((f = tp_count_call()) != 0)
		return tp_fail(f, addr, fault_addr);
	if (size != 1 && size != 2 && size != 4 && size != 8)
		tp_die("load of size %zu", size);
	if (addr & (size - 1))
		return tp_fail(DTRACEFLT_BADALIGN, addr, fault_addr);
	if ((f = tp_range_fault(space, addr, size, &where)) != 0)
		return tp_fail(f, where, fault_addr);
	switch (size) {
	case 1:
		*val = *(const volatile uint8_t *)addr;
		break;
	case 2:
		*val = *(const volatile uint16_t *)addr;
		break;
	case 4:
		*val = *(const volatile uint32_t *)addr;
		break;
	default:
		*val = *(const volatile uint64_t *)addr;
		break;
	}
	return 0;
}

int
dtrace_port_copyin(int space, uintptr_t src, void *dst, size_t len, uintptr_t *fault_addr)
{
	uintptr_t where;
	int f;

	tp_check_space(space);
	if ((f = tp_count_call()) != 0)
		return tp_fail(f, src, fault_addr);
	if ((f = tp_range_fault(space, src, len, &where)) != 0) {
		/* A real copy stops at the fault: the bytes before it arrive. */
		if (where != src)
			memcpy(dst, (const void *)src, where - src);
		return tp_fail(f, where, fault_addr);
	}
	if (len != 0)
		memcpy(dst, (const void *)src, len);
	return 0;
}

int
dtrace_port_copyinstr(int space, uintptr_t src, char *dst, size_t len, size_t *copied,
		      uintptr_t *fault_addr)
{
	size_t i;
	int f;

	tp_check_space(space);
	*copied = 0;
	if ((f = tp_count_call()) != 0)
		return tp_fail(f, src, fault_addr);
	if (tp_nfaults == 0 && !tp_strict && src >= TESTPORT_NULL_PAGE && src + len >= src) {
		/* Nothing can fault: copy as a kernel's copyinstr would. */
		const char *s = (const char *)src;

		for (i = 0; i < len; i++) {
			if ((dst[i] = s[i]) == '\0') {
				*copied = i + 1;
				return 0;
			}
		}
		*copied = len;
		return 0;
	}
	for (i = 0; i < len; i++) {
		if (src + i < src)
			return tp_fail(DTRACEFLT_BADADDR, src + i, fault_addr);
		if ((f = tp_byte_fault(space, src + i)) != 0)
			return tp_fail(f, src + i, fault_addr);
		dst[i] = *(const volatile char *)(src + i);
		*copied = i + 1;
		if (dst[i] == '\0')
			break;
	}
	return 0;
}

int
dtrace_port_copyout(const void *src, uintptr_t dst, size_t len, uintptr_t *fault_addr)
{
	uintptr_t where;
	int f;

	if ((f = tp_count_call()) != 0)
		return tp_fail(f, dst, fault_addr);
	if (tp_strict && len != 0 && !tp_strict_ok(dst, len, true))
		return tp_fail(DTRACEFLT_BADADDR, dst, fault_addr);
	if ((f = tp_range_fault(DTRACE_AS_USER, dst, len, &where)) != 0) {
		memcpy((void *)dst, src, where - dst);
		return tp_fail(f, where, fault_addr);
	}
	if (len != 0)
		memcpy((void *)dst, src, len);
	return 0;
}

/* --- Patching and modules --------------------------------------------------- */

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	uintptr_t where;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	if (tp_strict && !tp_strict_ok(addr, len, true))
		return DTRACE_EFAULT;
	if (tp_range_fault(DTRACE_AS_KERNEL, addr, len, &where) != 0)
		return DTRACE_EFAULT;
	memcpy((void *)addr, bytes, len);
	tp_ntextwrites++;
	return 0;
}

int
dtrace_port_text_read(void *as, uintptr_t addr, void *buf, size_t len)
{
	uintptr_t where;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	if (tp_range_fault(DTRACE_AS_KERNEL, addr, len, &where) != 0)
		return DTRACE_EFAULT;
	memcpy(buf, (const void *)addr, len);
	return 0;
}

/* Trampolines come from a fixed pool (the test port never runs them). */
int
dtrace_port_tramp_alloc(void *as, size_t len, uintptr_t *addr)
{
	static unsigned char pool[1 << 16] __attribute__((aligned(16)));
	static size_t used;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	len = (len + 15) & ~(size_t)15;
	if (len > sizeof(pool) - used)
		return DTRACE_ENOMEM;
	*addr = (uintptr_t)&pool[used];
	used += len;
	return 0;
}

uint64_t
testport_text_writes(void)
{
	return tp_ntextwrites;
}

void
testport_add_module(const dtrace_port_module_t *mod, const testport_symbol_t *syms, size_t nsyms)
{
	if (tp_nmodules == TESTPORT_MAXMODULES)
		tp_die("too many modules");
	tp_modules[tp_nmodules].tm_mod = *mod;
	tp_modules[tp_nmodules].tm_syms = syms;
	tp_modules[tp_nmodules].tm_nsyms = nsyms;
	tp_modules[tp_nmodules].tm_mod.dpm_port = &tp_modules[tp_nmodules];
	tp_nmodules++;
}

int
dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg)
{
	int rv;

	if (as != NULL)
		return 0; /* no other address spaces in the test port */
	for (size_t i = 0; i < tp_nmodules; i++) {
		if ((rv = cb(&tp_modules[i].tm_mod, arg)) != 0)
			return rv;
	}
	return 0;
}

int
dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	const tp_module_t *m = mod->dpm_port;
	int rv;

	if (m == NULL)
		return DTRACE_EINVAL;
	for (size_t i = 0; i < m->tm_nsyms; i++) {
		if ((rv = cb(m->tm_syms[i].ts_name, m->tm_syms[i].ts_addr, m->tm_syms[i].ts_size,
			     arg)) != 0)
			return rv;
	}
	return 0;
}

/* --- Time -------------------------------------------------------------------- */

void
testport_set_time(uint64_t ns)
{
	tp_hrtime = ns;
}

void
testport_advance_time(uint64_t ns)
{
	tp_hrtime += ns;
	tp_walltime += ns;
}

void
testport_set_walltime(uint64_t ns)
{
	tp_walltime = ns;
}

uint64_t
dtrace_port_gethrtime(void)
{
	return tp_hrtime;
}

uint64_t
dtrace_port_getwalltime(void)
{
	return tp_walltime;
}

/* --- Thread facts ------------------------------------------------------------- */

uint64_t
dtrace_port_curthread_value(dtrace_thread_fact_t fact)
{
	const testport_thread_t *t = testport_thread();

	if ((unsigned)fact >= DTRACE_THR_NFACTS)
		tp_die("unknown thread fact %d", (int)fact);
	if (fact == DTRACE_THR_HWCPU && t->tt_fact[fact] == UINT64_MAX)
		return tp_curcpu;
	return t->tt_fact[fact];
}

const char *
dtrace_port_curthread_execname(void)
{
	return testport_thread()->tt_execname;
}

/* The test port's device numbers are illumos' 64-bit dev_t: 32 bits each. */
uint64_t
dtrace_port_dev_major(uint64_t dev)
{
	return dev >> 32;
}

uint64_t
dtrace_port_dev_minor(uint64_t dev)
{
	return dev & 0xffffffffu;
}

int
dtrace_port_curproc_progenyof(uint64_t pid)
{
	const testport_thread_t *t = testport_thread();

	if (pid == t->tt_fact[DTRACE_THR_PID] || pid == t->tt_fact[DTRACE_THR_PPID])
		return 1;
	for (unsigned i = 0; i < t->tt_nancestors && i < 4; i++)
		if (pid == t->tt_ancestors[i])
			return 1;
	return 0;
}

/* --- Stacks, arguments, registers -------------------------------------------- */

void
testport_set_pcstack(const uint64_t *pcs, int n)
{
	if (n < 0 || n > TESTPORT_STACKMAX)
		tp_die("bad stack depth %d", n);
	if (n > 0)
		memcpy(tp_pcstack, pcs, (size_t)n * sizeof(*pcs));
	tp_npcstack = n;
}

void
testport_set_ustack(const uint64_t *pcs, int n)
{
	if (n < 0 || n > TESTPORT_STACKMAX)
		tp_die("bad stack depth %d", n);
	if (n > 0)
		memcpy(tp_ustack, pcs, (size_t)n * sizeof(*pcs));
	tp_nustack = n;
}

void
testport_set_args(const uint64_t *args, int n)
{
	if (n < 0 || n > TESTPORT_ARGMAX)
		tp_die("bad argument count %d", n);
	memcpy(tp_args, args, (size_t)n * sizeof(*args));
	tp_nargs = n;
}

void
testport_set_regs(const uint64_t *regs, unsigned n)
{
	if (n > TESTPORT_REGMAX)
		tp_die("bad register count %u", n);
	memcpy(tp_regs, regs, n * sizeof(*regs));
	tp_nregs = n;
}

void
testport_set_stack_limit(int frames)
{
	tp_stack_limit = frames;
}

static int
tp_walkable(int depth)
{
	if (tp_stack_limit >= 0 && depth > tp_stack_limit)
		return tp_stack_limit;
	return depth;
}

int
dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes)
{
	int depth = tp_walkable(tp_npcstack - aframes);
	int n = 0;

	for (; n < depth && n < max; n++)
		pcs[n] = tp_pcstack[aframes + n];
	for (int i = n; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getustack(uint64_t *pcs, int max)
{
	int n = 0;

	if (max <= 0)
		return 0;
	pcs[0] = dtrace_port_curthread_value(DTRACE_THR_PID);
	for (; n < tp_walkable(tp_nustack) && n + 1 < max; n++)
		pcs[n + 1] = tp_ustack[n];
	for (int i = n + 1; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getstackdepth(int aframes)
{
	int d = tp_npcstack - aframes;

	return d < 0 ? 0 : tp_walkable(d);
}

int
dtrace_port_getustackdepth(void)
{
	return tp_walkable(tp_nustack);
}

uint64_t
dtrace_port_getarg(int n, int aframes)
{
	(void)aframes;
	if (n < 0 || n >= tp_nargs)
		return 0;
	return tp_args[n];
}

uint64_t
dtrace_port_getreg(unsigned reg, bool *ok)
{
	if (reg >= tp_nregs) {
		*ok = false;
		return 0;
	}
	*ok = true;
	return tp_regs[reg];
}

uint64_t
dtrace_port_caller(int aframes)
{
	int i = aframes + 1;

	return i < tp_npcstack ? tp_pcstack[i] : 0;
}

uint64_t
dtrace_port_ucaller(void)
{
	return tp_nustack > 1 ? tp_ustack[1] : 0;
}

/* --- Destructive actions ---------------------------------------------------- */

const testport_destructive_t *
testport_destructive(void)
{
	return &tp_destr;
}

void
dtrace_port_raise(int sig)
{
	tp_destr.td_raised = sig;
	tp_destr.td_raises++;
}

void
dtrace_port_stop(void)
{
	tp_destr.td_stops++;
}

void
dtrace_port_chill(uint64_t ns)
{
	/* Chilling spins on the clock: the simulated clock moves by as much. */
	tp_destr.td_chilled_ns += ns;
	tp_hrtime += ns;
}

void
dtrace_port_breakpoint(void)
{
	tp_destr.td_breakpoints++;
}

void
dtrace_port_panic(const char *msg)
{
	tp_destr.td_panics++;
	snprintf(tp_destr.td_panicmsg, sizeof(tp_destr.td_panicmsg), "%s", msg);
}

/* --- Memory and locks ---------------------------------------------------------- */

/* Each allocation carries its size in front, so frees with a wrong size
 * abort, and sits on a list strict mode consults. */
#define TP_HDR sizeof(tp_alloc_hdr_t)

void
testport_alloc_fail_nth(uint64_t nth)
{
	tp_alloc_fail_at = nth == 0 ? 0 : tp_alloc_calls + nth;
	tp_alloc_fail_after = false;
}

void
testport_alloc_fail_from(uint64_t nth)
{
	tp_alloc_fail_at = nth == 0 ? 0 : tp_alloc_calls + nth;
	tp_alloc_fail_after = nth != 0;
}

uint64_t
testport_alloc_count(void)
{
	return tp_alloc_ok;
}

uint64_t
testport_alloc_outstanding(void)
{
	return tp_alloc_live;
}

size_t
testport_alloc_bytes(void)
{
	return tp_alloc_live_bytes;
}

void *
dtrace_port_zalloc(size_t size)
{
	uint64_t n = ++tp_alloc_calls;
	char *p;

	if (tp_alloc_fail_at != 0 &&
	    (n == tp_alloc_fail_at || (tp_alloc_fail_after && n > tp_alloc_fail_at)))
		return NULL;
	if (size > SIZE_MAX - TP_HDR)
		return NULL;
	if ((p = calloc(1, size + TP_HDR)) == NULL)
		return NULL;
	{
		tp_alloc_hdr_t *h = (tp_alloc_hdr_t *)p;
		h->th_size = size;
		h->th_next = tp_allocs.th_next;
		h->th_prev = &tp_allocs;
		tp_allocs.th_next->th_prev = h;
		tp_allocs.th_next = h;
	}
	tp_alloc_ok++;
	tp_alloc_live++;
	tp_alloc_live_bytes += size;
	return p + TP_HDR;
}

static void
tp_free_kind(void *ptr, size_t size, uint64_t kind)
{
	size_t had;
	char *p;

	if (ptr == NULL)
		return;
	p = (char *)ptr - TP_HDR;
	memcpy(&had, p, sizeof(had));
	if (had != size)
		tp_die("free of %p with size %zu, allocated with %zu", ptr, size, had);
	if (((tp_alloc_hdr_t *)p)->th_kind != kind)
		tp_die("free of %p as %s memory, allocated as %s", ptr,
		       kind == TP_KIND_PROBE ? "probe-writable" : "shared read-only",
		       kind == TP_KIND_PROBE ? "shared read-only" : "probe-writable");
	{
		tp_alloc_hdr_t *h = (tp_alloc_hdr_t *)p;
		h->th_prev->th_next = h->th_next;
		h->th_next->th_prev = h->th_prev;
	}
	memset(p, 0xdb, size + TP_HDR); /* poison: use-after-free reads garbage */
	free(p);
	tp_alloc_live--;
	tp_alloc_live_bytes -= size;
}

void
dtrace_port_free(void *ptr, size_t size)
{
	tp_free_kind(ptr, size, TP_KIND_SHARED);
}

/*
 * Memory probe context writes: the same allocator (failure injection
 * counts it, strict mode lets D reach it), marked so that freeing it as
 * the other kind, or the other kind as it, aborts the test: the core
 * must give each structure back to the allocator it came from.
 */
void *
dtrace_port_zalloc_probe(size_t size)
{
	char *p = dtrace_port_zalloc(size);

	if (p != NULL)
		((tp_alloc_hdr_t *)(p - TP_HDR))->th_kind = TP_KIND_PROBE;
	return p;
}

void
dtrace_port_free_probe(void *ptr, size_t size)
{
	tp_free_kind(ptr, size, TP_KIND_PROBE);
}

/*
 * Private memory: the same size header (so a free with the wrong size
 * aborts) but not on the list strict mode consults, since D can never reach
 * it; outstanding like any allocation, so leaks show.
 */
void
testport_private_alloc_fail(bool fail)
{
	tp_private_fail = fail;
}

uint64_t
testport_private_alloc_count(void)
{
	return tp_private_ok;
}

void *
dtrace_port_zalloc_private(size_t size)
{
	char *p;

	if (tp_private_fail || size > SIZE_MAX - TP_HDR)
		return NULL;
	if ((p = calloc(1, size + TP_HDR)) == NULL)
		return NULL;
	memcpy(p, &size, sizeof(size));
	tp_private_ok++;
	tp_alloc_live++;
	tp_alloc_live_bytes += size;
	return p + TP_HDR;
}

void
dtrace_port_free_private(void *ptr, size_t size)
{
	size_t had;
	char *p;

	if (ptr == NULL)
		return;
	p = (char *)ptr - TP_HDR;
	memcpy(&had, p, sizeof(had));
	if (had != size)
		tp_die("private free of %p with size %zu, allocated with %zu", ptr, size, had);
	memset(p, 0xdb, size + TP_HDR);
	free(p);
	tp_alloc_live--;
	tp_alloc_live_bytes -= size;
}

void
dtrace_port_lock(dtrace_lockid_t lock)
{
	if ((unsigned)lock >= DTRACE_NLOCKS)
		tp_die("unknown lock %d", (int)lock);
	if (tp_lock_held[lock])
		tp_die("lock %d taken while held (self-deadlock)", (int)lock);
	if (lock == DTRACE_LOCK_PROVIDER && tp_lock_held[DTRACE_LOCK_FRAMEWORK])
		tp_die("lock order: PROVIDER taken while FRAMEWORK is held");
	tp_lock_held[lock] = true;
	tp_lock_count[lock]++;
}

void
dtrace_port_unlock(dtrace_lockid_t lock)
{
	if ((unsigned)lock >= DTRACE_NLOCKS || !tp_lock_held[lock])
		tp_die("unlock of lock %d that is not held", (int)lock);
	tp_lock_held[lock] = false;
}

bool
dtrace_port_lock_held(dtrace_lockid_t lock)
{
	return (unsigned)lock < DTRACE_NLOCKS && tp_lock_held[lock];
}

bool
testport_lock_is_held(dtrace_lockid_t lock)
{
	return dtrace_port_lock_held(lock);
}

uint64_t
testport_lock_acquisitions(dtrace_lockid_t lock)
{
	return (unsigned)lock < DTRACE_NLOCKS ? tp_lock_count[lock] : 0;
}

/* --- Timers --------------------------------------------------------------------- */

dtrace_port_timer_t *
dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	for (int i = 0; i < TESTPORT_MAXTIMERS; i++) {
		if (!tp_timers[i].tt_active) {
			tp_timers[i] = (struct dtrace_port_timer){true, interval_ns, fn, arg};
			return &tp_timers[i];
		}
	}
	return NULL;
}

void
dtrace_port_timer_cancel(dtrace_port_timer_t *timer)
{
	if (timer == NULL || !timer->tt_active)
		tp_die("cancel of a timer that is not running");
	timer->tt_active = false;
}

size_t
testport_timers_active(void)
{
	size_t n = 0;

	for (int i = 0; i < TESTPORT_MAXTIMERS; i++)
		n += tp_timers[i].tt_active;
	return n;
}

uint64_t
testport_timer_interval(size_t which)
{
	size_t n = 0;

	for (int i = 0; i < TESTPORT_MAXTIMERS; i++) {
		if (tp_timers[i].tt_active && n++ == which)
			return tp_timers[i].tt_interval;
	}
	return 0;
}

size_t
testport_fire_timers(uint64_t interval_ns)
{
	size_t ran = 0;

	for (int i = 0; i < TESTPORT_MAXTIMERS; i++) {
		struct dtrace_port_timer *t = &tp_timers[i];
		if (!t->tt_active || (interval_ns != 0 && t->tt_interval != interval_ns))
			continue;
		t->tt_fn(t->tt_arg);
		ran++;
	}
	return ran;
}

/* --- Diagnostics ------------------------------------------------------------------- */

void
dtrace_port_log(const char *fmt, va_list ap)
{
	vsnprintf(tp_log, sizeof(tp_log), fmt, ap);
}

const char *
testport_last_log(void)
{
	return tp_log;
}
