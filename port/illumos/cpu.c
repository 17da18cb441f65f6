/*
 * port/illumos/cpu.c: probe context, cross-calls and time (port.h sections
 * 1 and 6) on illumos.
 *
 * Probe context masks interrupts and marks the CPU, refusing recursion.
 * Cross-calls are xc_sync() at X_CALL_HIPRI with preemption disabled, run
 * through a wrapper of the xc_func_t shape.  This kernel's xc_sync takes
 * (a1, a2, a3, pri, cpuset, func); current illumos dropped the priority and
 * takes the set as CPUSET2BV(set) (docs/porting.md).
 *
 * Time.  gethrtime() serializes against the clock with hres_lock, which a
 * probe in the clock interrupt would wait on forever; the port reads the
 * TSC and scales it with a ratio measured against gethrtime() at load, and
 * walltime adds the offset of gethrestime() taken then.  The kernel's own
 * lock-free dtrace_gethrtime() is declared only in <sys/dtrace.h>.
 */
#include "illumos_impl.h"
#include "kernel_port.h"

#include <sys/disp.h>
#include <sys/time.h>
#include <sys/x_call.h>
#include <sys/xc_levels.h>

struct ill_cpu ill_cpus[NCPU];

bool
dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out)
{
	uintptr_t s = ill_md_intr_disable();
	struct ill_cpu *ic = &ill_cpus[CPU->cpu_id];

	if (ic->ic_inprobe) {
		ill_md_intr_restore(s);
		return false;
	}
	ic->ic_inprobe = 1;
	ic->ic_probe_fp = isa_frame_caller_fp((uintptr_t)__builtin_frame_address(0));
	*cpu = (dtrace_cpuid_t)CPU->cpu_id;
	*cookie_out = s;
	return true;
}

void
dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie)
{
	ill_cpus[cpu].ic_probe_fp = 0;
	ill_cpus[cpu].ic_inprobe = 0;
	ill_md_intr_restore(cookie);
}

uint32_t
dtrace_port_ncpus(void)
{
	return NCPU;
}

static int
ill_xcall_one(xc_arg_t fn, xc_arg_t arg, xc_arg_t unused)
{
	(void)unused;
	((dtrace_xcall_fn_t)fn)((void *)arg);
	return 0;
}

void
dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	cpuset_t set;

	if (cpu == DTRACE_CPU_ALL)
		CPUSET_ALL(set);
	else
		CPUSET_ONLY(set, cpu);
	kpreempt_disable();
	xc_sync((xc_arg_t)fn, (xc_arg_t)arg, 0, X_CALL_HIPRI, set, ill_xcall_one);
	kpreempt_enable();
}

const isa_regs_t *
kern_trap_regs(void)
{
	return ill_cpus[CPU->cpu_id].ic_trapregs;
}

uintptr_t
kern_probe_fp(void)
{
	return ill_cpus[CPU->cpu_id].ic_probe_fp;
}

static uint64_t ill_count0, ill_ns0, ill_mult, ill_wall0;

uint64_t
dtrace_port_gethrtime(void)
{
	uint64_t d = ill_md_counter() - ill_count0;

	return ill_ns0 + (uint64_t)(((unsigned __int128)d * ill_mult) >> 32);
}

uint64_t
dtrace_port_getwalltime(void)
{
	return ill_wall0 + dtrace_port_gethrtime();
}

int
ill_time_init(void)
{
	hrtime_t t0, t1;
	uint64_t c0, c1, freq;
	timespec_t ts;

	t0 = gethrtime();
	c0 = ill_md_counter();
	drv_usecwait(20000);
	t1 = gethrtime();
	c1 = ill_md_counter();
	if (t1 <= t0 || c1 <= c0)
		return ENXIO;
	freq = (c1 - c0) * 1000000000ull / (uint64_t)(t1 - t0);
	if (freq == 0)
		return ENXIO;
	ill_mult = (1000000000ull << 32) / freq;
	ill_ns0 = (uint64_t)gethrtime();
	ill_count0 = ill_md_counter();
	gethrestime(&ts);
	ill_wall0 = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec -
		    dtrace_port_gethrtime();
	return 0;
}
