/*
 * tests/port/stacks.c: stacks, caller, arguments and uregs through the port.
 *
 * Called directly (no interrupted context), getpcstack and getustack walk
 * the calling thread's frames: the first frame after the skipped ones is
 * the caller's return address, ustack starts with the pid, depth counts
 * agree, and uregs are unavailable.  Fired from a cpu timer's signal, the
 * stack starts at the interrupted PC, uregs[] holds that PC under one of
 * its indices, and args come from the argument registers.  In probe
 * context entered by a function F (as dtrace_probe enters it), the stack
 * starts at F's return address into the function that fired the probe,
 * however deep below F it is taken, and aframes skips frames after that;
 * ustack() is complete through a chain of frame-pointer functions down to
 * main, and ucaller is its second PC.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static uint64_t pcs[16], upcs[16], expect_ra;
static int n, un, depth, udepth;

static void __attribute__((noinline))
take_stacks(void)
{
	expect_ra = (uint64_t)(uintptr_t)__builtin_return_address(0);
	n = dtrace_port_getpcstack(pcs, 16, 0);
	un = dtrace_port_getustack(upcs, 16);
	depth = dtrace_port_getstackdepth(0);
	udepth = dtrace_port_getustackdepth();
	__asm__ __volatile__("" ::: "memory");
}

static void __attribute__((noinline))
outer(void)
{
	take_stacks();
	__asm__ __volatile__("" ::: "memory");
}

/* A probe context entered by fake_probe (the role of dtrace_probe), with
 * the stack taken two calls deeper (the core's own functions). */
static uint64_t in_pcs[8], in_ra, site_ra;
static int in_n, in_n1;
static uint64_t in_caller;

static void __attribute__((noinline))
deep2(void)
{
	uint64_t skip1[8];

	in_n = dtrace_port_getpcstack(in_pcs, 8, 0);
	in_n1 = dtrace_port_getpcstack(skip1, 8, 1);
	in_caller = dtrace_port_caller(0);
	if (in_n1 < 1 || skip1[0] != in_pcs[1])
		in_n1 = -1;
	__asm__ __volatile__("" ::: "memory");
}

static void __attribute__((noinline))
deep1(void)
{
	deep2();
	__asm__ __volatile__("" ::: "memory");
}

static void __attribute__((noinline))
fake_probe(void)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;

	in_ra = (uint64_t)(uintptr_t)__builtin_return_address(0);
	if (!dtrace_port_probe_enter(&cpu, &cookie))
		return;
	deep1();
	dtrace_port_probe_exit(cpu, cookie);
	__asm__ __volatile__("" ::: "memory");
}

static void __attribute__((noinline))
probe_site(void)
{
	site_ra = (uint64_t)(uintptr_t)__builtin_return_address(0);
	fake_probe();
	__asm__ __volatile__("" ::: "memory");
}

/*
 * A chain main -> chain3 -> chain2 -> chain1 -> fake_probe: ustack() in its
 * probe context must hold every return address of the chain, in order,
 * down to the one into main (complete for frame-pointer code), and
 * ucaller must be ustack's second PC.
 */
static uint64_t chain_ra[4], chain_ustack[32], chain_ucaller;
static int chain_n, chain_depth;

static void __attribute__((noinline))
chain_fire(void)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;

	chain_ra[0] = (uint64_t)(uintptr_t)__builtin_return_address(0);
	if (!dtrace_port_probe_enter(&cpu, &cookie))
		return;
	chain_n = dtrace_port_getustack(chain_ustack, 32);
	chain_depth = dtrace_port_getustackdepth();
	chain_ucaller = dtrace_port_ucaller();
	dtrace_port_probe_exit(cpu, cookie);
	__asm__ __volatile__("" ::: "memory");
}

#define CHAIN_LINK(name, next, i)                                                                  \
	static void __attribute__((noinline)) name(void)                                           \
	{                                                                                          \
		chain_ra[i] = (uint64_t)(uintptr_t)__builtin_return_address(0);                    \
		next();                                                                            \
		__asm__ __volatile__("" ::: "memory");                                             \
	}
CHAIN_LINK(chain1, chain_fire, 1)
CHAIN_LINK(chain2, chain1, 2)
CHAIN_LINK(chain3, chain2, 3)

static void
check_chain(void)
{
	int i, k = 1;

	chain3();
	/* chain_ustack: pid, then the PC in chain_fire... then the chain. */
	CHECK(chain_n >= 5, "ustack has %d frames", chain_n);
	for (i = 0; i < 4; i++) {
		while (k <= chain_n && chain_ustack[k] != chain_ra[i])
			k++;
		CHECK(k <= chain_n, "ustack holds return address %d (%#llx)", i,
		      (unsigned long long)chain_ra[i]);
	}
	CHECK(chain_ustack[1] == chain_ra[0], "ustack starts in the firing function");
	CHECK(chain_ucaller == chain_ustack[2], "ucaller %#llx is ustack's second PC %#llx",
	      (unsigned long long)chain_ucaller, (unsigned long long)chain_ustack[2]);
	CHECK(chain_depth == chain_n, "ustackdepth %d = frames %d", chain_depth, chain_n);
}

static _Atomic int fired, trap_ok, reg_ok, arg_ok;

static void
on_timer(void *arg, const isa_regs_t *regs)
{
	uint64_t st[8], v;
	bool ok;
	unsigned r;
	int k;

	(void)arg;
	k = dtrace_port_getpcstack(st, 8, 0);
	if (k >= 1 && st[0] == isa_regs_pc(regs))
		atomic_store(&trap_ok, 1);
	for (r = 0; r < 64; r++) {
		v = dtrace_port_getreg(r, &ok);
		if (ok && v == isa_regs_pc(regs))
			atomic_store(&reg_ok, 1);
	}
	if (dtrace_port_getarg(0, 0) == regs->r[isa_arg_regs[0]])
		atomic_store(&arg_ok, 1);
	atomic_fetch_add(&fired, 1);
}

int
main(void)
{
	linux_cputimer_t *t;
	struct timespec ts = {0, 20 * 1000000L};
	bool ok = true;
	int i;

	outer();
	CHECK(n >= 2 && pcs[1] == expect_ra, "pcstack: n %d, pcs[1] %#llx, want %#llx", n,
	      (unsigned long long)pcs[1], (unsigned long long)expect_ra);
	CHECK(un >= 2 && upcs[0] == (uint64_t)getpid() && upcs[2] == expect_ra,
	      "ustack: n %d pid %llu", un, (unsigned long long)upcs[0]);
	CHECK(depth >= n && depth < 512, "depth %d vs %d", depth, n);
	CHECK(udepth >= un && udepth < 512, "udepth %d vs %d", udepth, un);
	for (i = n; i < 16; i++)
		CHECK(pcs[i] == 0, "unused pcs zeroed");
	dtrace_port_getreg(0, &ok);
	CHECK(!ok, "no uregs outside an interrupted context");

	CHECK(linux_arena_create((size_t)64 << 20) == 0, "arena");
	linux_slots_init(0);
	probe_site();
	CHECK(in_n >= 2 && in_pcs[0] == in_ra && in_pcs[1] == site_ra,
	      "probe-context stack starts at the firing function: n %d %#llx/%#llx", in_n,
	      (unsigned long long)in_pcs[0], (unsigned long long)in_ra);
	CHECK(in_n1 > 0, "aframes 1 skips the first frame");
	CHECK(in_caller == site_ra, "caller is the firing function's caller");
	check_chain();

	CHECK(linux_cputimer_start(false, 2 * 1000000ULL, on_timer, NULL, &t) == 0, "timer");
	for (i = 0; i < 100 && atomic_load(&fired) < 3; i++)
		nanosleep(&ts, NULL);
	linux_cputimer_stop(t);
	linux_cputimer_shutdown();
	CHECK(atomic_load(&fired) >= 3, "timer fired %d", atomic_load(&fired));
	CHECK(atomic_load(&trap_ok), "stack starts at the interrupted PC");
	CHECK(atomic_load(&reg_ok), "uregs[] has the interrupted PC");
	CHECK(atomic_load(&arg_ok), "args from the argument registers");
	TEST_DONE();
}
