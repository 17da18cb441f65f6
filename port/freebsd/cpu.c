/*
 * port/freebsd/cpu.c: probe context, cross-calls and time (port.h sections
 * 1 and 6) on FreeBSD.
 *
 * Probe context is interrupts off on the current CPU (intr_disable, whose
 * saved flags are the cookie) plus a per-CPU mark that refuses recursion.
 * Cross-calls are smp_rendezvous_cpus(): the action runs in the IPI handler
 * with interrupts off on every target, and on the caller inside a spinlock
 * section, so no probe runs on a CPU while fn does.
 *
 * Time.  binuptime() and friends loop on the timehands generation, which a
 * probe firing inside tc_windup() would see as 0 forever, so gethrtime reads
 * the processor's counter directly (md_<isa>.c: TSC, CNTVCT, the riscv time
 * CSR) and scales it with a multiplier fixed at load (kernel/kclock.h);
 * walltime adds the boot-time offset taken at load with getnanotime().
 * Neither takes a lock.
 * DTrace's per-CPU TSC skew correction is not done: CPUs whose counters
 * disagree would make timestamps from different CPUs disagree as much.
 */
#include "freebsd_impl.h"
#include "kclock.h"

#include <sys/smp.h>
#include <sys/time.h>

struct fbsd_cpu fbsd_cpus[MAXCPU];

bool
dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out)
{
	register_t s = intr_disable();
	struct fbsd_cpu *fc = fbsd_cpu_self();

	if (fc->fc_inprobe) {
		intr_restore(s);
		return false;
	}
	fc->fc_inprobe = 1;
	/* the caller is dtrace_probe(): kernel stacks start at its frame */
	fc->fc_probe_fp = isa_frame_caller_fp((uintptr_t)__builtin_frame_address(0));
	*cpu = curcpu;
	*cookie_out = (uintptr_t)s;
	return true;
}

void
dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie)
{
	struct fbsd_cpu *fc = &fbsd_cpus[cpu];

	fc->fc_probe_fp = 0;
	fc->fc_inprobe = 0;
	intr_restore((register_t)cookie);
}

uint32_t
dtrace_port_ncpus(void)
{
	return mp_maxid + 1;
}

void
dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	cpuset_t set;

	if (cpu == DTRACE_CPU_ALL) {
		set = all_cpus;
	} else {
		if (cpu > mp_maxid || CPU_ABSENT(cpu))
			return;
		CPU_SETOF(cpu, &set);
	}
	smp_rendezvous_cpus(set, smp_no_rendezvous_barrier, fn, smp_no_rendezvous_barrier, arg);
}

static kclock_t fbsd_clock;

uint64_t
dtrace_port_gethrtime(void)
{
	return kclock_hrtime(&fbsd_clock, fbsd_md_counter());
}

uint64_t
dtrace_port_getwalltime(void)
{
	return kclock_walltime(&fbsd_clock, fbsd_md_counter());
}

/* Fix the scale (calibrating the counter for 20 ms when the ISA cannot say
 * its frequency) and the offsets; once, at load. */
int
fbsd_time_init(void)
{
	uint64_t freq = fbsd_md_counter_freq();
	struct timespec ts;
	sbintime_t t0, t1;
	uint64_t c0;

	if (freq == 0) {
		t0 = sbinuptime();
		c0 = fbsd_md_counter();
		DELAY(20000);
		t1 = sbinuptime();
		freq = kclock_calibrate(fbsd_md_counter() - c0, t1 > t0 ? kclock_q32_ns((uint64_t)(t1 - t0)) : 0);
	}
	getnanotime(&ts);
	if (!kclock_set(&fbsd_clock, freq, fbsd_md_counter(), kclock_q32_ns((uint64_t)sbinuptime()),
			(uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec))
		return ENXIO;
	return 0;
}
