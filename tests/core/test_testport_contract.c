/*
 * The test port keeps the port.h contract and its injectors work: probe
 * context is exclusive per CPU and refuses recursion, cross-calls visit every
 * CPU outside probe context, nofault loads fault where told (by range, on the
 * Nth call, below the NULL page, misaligned), allocation failures and leak
 * accounting, timers fire on demand, stacks skip artificial frames.
 */
#include "test_util.h"
#include "testport.h"

static int visited[TESTPORT_MAXCPUS];

static void
visit(void *arg)
{
	(void)arg;
	visited[testport_xcall_cpu()]++;
	CHECK(testport_cpu_busy(testport_xcall_cpu()));
}

static int fired;
static void
tick(void *arg)
{
	fired += *(int *)arg;
}

int
main(void)
{
	dtrace_cpuid_t cpu, cpu2;
	uintptr_t cookie, cookie2, fa;
	uint64_t v;
	char buf[32], src[32] = "hello";
	size_t copied;

	testport_reset(true);

	/* Probe context: exclusive, recursion refused, per CPU. */
	testport_set_ncpus(4);
	CHECK_EQ(dtrace_port_ncpus(), 4);
	testport_set_cpu(2);
	CHECK(dtrace_port_probe_enter(&cpu, &cookie));
	CHECK_EQ(cpu, 2);
	CHECK(!dtrace_port_probe_enter(&cpu2, &cookie2));
	CHECK_EQ(testport_probe_refusals(), 1);
	testport_set_cpu(3);
	CHECK(dtrace_port_probe_enter(&cpu2, &cookie2));
	CHECK_EQ(cpu2, 3);
	dtrace_port_probe_exit(cpu2, cookie2);
	dtrace_port_probe_exit(cpu, cookie);
	CHECK(!testport_cpu_busy(2));

	/* Cross-calls visit every CPU once, with the CPU held. */
	dtrace_port_xcall(DTRACE_CPU_ALL, visit, NULL);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(visited[i], 1);
	dtrace_port_xcall(1, visit, NULL);
	CHECK_EQ(visited[1], 2);
	CHECK_EQ(testport_cpu(), 3); /* restored */

	/* Loads read real memory. */
	uint64_t word = 0x1122334455667788ull;
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 8, &v, &fa), 0);
	CHECK_EQ(v, 0x1122334455667788ull);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 1, &v, &fa), 0);
	CHECK_EQ(v, 0x88);
	/* NULL page always faults. */
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, 8, 8, &v, &fa), DTRACEFLT_BADADDR);
	CHECK_EQ(fa, 8);
	/* Misaligned. */
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word + 1, 4, &v, &fa),
		 DTRACEFLT_BADALIGN);
	/* Injected range, one space only. */
	testport_fault_range(DTRACE_AS_USER, (uintptr_t)&word + 4, 4, DTRACEFLT_BADADDR);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 8, &v, &fa), 0);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_USER, (uintptr_t)&word, 8, &v, &fa),
		 DTRACEFLT_BADADDR);
	CHECK_EQ(fa, (uintptr_t)&word + 4);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_USER, (uintptr_t)&word, 4, &v, &fa), 0);
	testport_fault_clear();

	/* copyin stops at the fault, reporting its address. */
	testport_fault_range(-1, (uintptr_t)src + 3, 1, DTRACEFLT_BADADDR);
	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(dtrace_port_copyin(DTRACE_AS_KERNEL, (uintptr_t)src, buf, 6, &fa),
		 DTRACEFLT_BADADDR);
	CHECK_EQ(fa, (uintptr_t)src + 3);
	CHECK(memcmp(buf, "helx", 4) == 0);
	/* copyinstr before the fault succeeds if the NUL comes first. */
	testport_fault_clear();
	testport_fault_range(-1, (uintptr_t)src + 6, 1, DTRACEFLT_BADADDR);
	CHECK_EQ(dtrace_port_copyinstr(DTRACE_AS_USER, (uintptr_t)src, buf, 32, &copied, &fa), 0);
	CHECK_EQ(copied, 6);
	CHECK_STREQ(buf, "hello");
	CHECK_EQ(dtrace_port_copyinstr(DTRACE_AS_USER, (uintptr_t)src, buf, 3, &copied, &fa), 0);
	CHECK_EQ(copied, 3);
	testport_fault_clear();

	/* The Nth nofault call fails, whatever it touches. */
	uint64_t before = testport_nofault_calls();
	testport_fault_nth(2, DTRACEFLT_BADADDR);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 8, &v, &fa), 0);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 8, &v, &fa),
		 DTRACEFLT_BADADDR);
	CHECK_EQ(fa, (uintptr_t)&word);
	CHECK_EQ(v, 0);
	CHECK_EQ(dtrace_port_load(DTRACE_AS_KERNEL, (uintptr_t)&word, 8, &v, &fa), 0);
	CHECK_EQ(testport_nofault_calls() - before, 3);

	/* Allocation: failure injection and accounting. */
	void *a = dtrace_port_zalloc(100);
	CHECK(a != NULL && ((char *)a)[99] == 0);
	testport_alloc_fail_nth(2);
	void *b = dtrace_port_zalloc(8);
	void *c = dtrace_port_zalloc(8);
	void *d = dtrace_port_zalloc(8);
	CHECK(b != NULL && c == NULL && d != NULL);
	CHECK_EQ(testport_alloc_outstanding(), 3);
	CHECK_EQ(testport_alloc_bytes(), 116);
	dtrace_port_free(a, 100);
	dtrace_port_free(b, 8);
	dtrace_port_free(d, 8);
	CHECK_EQ(testport_alloc_outstanding(), 0);

	/* Locks. */
	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	CHECK(dtrace_port_lock_held(DTRACE_LOCK_FRAMEWORK));
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	CHECK(!testport_lock_is_held(DTRACE_LOCK_PROVIDER));

	/* Timers fire only when the test says. */
	int one = 1, ten = 10;
	dtrace_port_timer_t *t1 = dtrace_port_timer_start(1000, tick, &one);
	dtrace_port_timer_t *t2 = dtrace_port_timer_start(5000, tick, &ten);
	CHECK_EQ(testport_timers_active(), 2);
	CHECK_EQ(fired, 0);
	CHECK_EQ(testport_fire_timers(5000), 1);
	CHECK_EQ(fired, 10);
	CHECK_EQ(testport_fire_timers(0), 2);
	CHECK_EQ(fired, 21);
	dtrace_port_timer_cancel(t1);
	dtrace_port_timer_cancel(t2);
	CHECK_EQ(testport_timers_active(), 0);

	/* Clock and thread facts. */
	testport_set_time(500);
	testport_advance_time(25);
	CHECK_EQ(dtrace_port_gethrtime(), 525);
	testport_switch_thread(7);
	CHECK_EQ(dtrace_port_curthread_value(DTRACE_THR_TID), 7);
	CHECK_EQ(dtrace_port_curthread_value(DTRACE_THR_KEY), 0x1007);
	CHECK_EQ(dtrace_port_curthread_value(DTRACE_THR_HWCPU), 3);
	CHECK_STREQ(dtrace_port_curthread_execname(), "testproc");

	/* Stacks skip artificial frames; caller is the next frame. */
	uint64_t stk[] = {0xa0, 0xa1, 0xb0, 0xb1, 0xb2}, pcs[8];
	testport_set_pcstack(stk, 5);
	CHECK_EQ(dtrace_port_getpcstack(pcs, 8, 2), 3);
	CHECK_EQ(pcs[0], 0xb0);
	CHECK_EQ(pcs[3], 0);
	CHECK_EQ(dtrace_port_getstackdepth(2), 3);
	CHECK_EQ(dtrace_port_caller(2), 0xb1);
	uint64_t ustk[] = {0x400100, 0x400200};
	testport_set_ustack(ustk, 2);
	CHECK_EQ(dtrace_port_getustack(pcs, 8), 2);
	CHECK_EQ(pcs[0], 100); /* pid first */
	CHECK_EQ(pcs[2], 0x400200);
	CHECK_EQ(dtrace_port_ucaller(), 0x400200);

	testport_reset(true);
	CHECK_EQ(dtrace_port_ncpus(), 1);
	return TEST_DONE();
}
