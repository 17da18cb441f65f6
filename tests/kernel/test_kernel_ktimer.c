/*
 * kernel/ktimer.c, a periodic timer's schedule on a clock this test moves:
 * nothing before the first deadline, one call per interval that passed
 * (several when the thread slept through them), a backlog cut at
 * KTIMER_BURST and the schedule moved past it, the sleep asked for
 * shortened by the time the calls took, a zero interval taken as 1 ns.
 */
#include "ktimer.h"
#include "test_util.h"

static uint64_t now_ns, call_cost;
static int calls;

uint64_t
dtrace_port_gethrtime(void)
{
	return now_ns;
}

static void
tick(void *arg)
{
	(*(int *)arg)++;
	now_ns += call_cost;
}

int
main(void)
{
	ktimer_t kt;

	ktimer_init(&kt, 1000, tick, &calls);
	CHECK_EQ(ktimer_run(&kt), 1000);
	now_ns = 999;
	CHECK_EQ(ktimer_run(&kt), 1);
	CHECK_EQ(calls, 0);
	now_ns = 1000;
	CHECK_EQ(ktimer_run(&kt), 1000);
	CHECK_EQ(calls, 1);
	now_ns = 5500; /* slept through 2000 .. 5000 */
	CHECK_EQ(ktimer_run(&kt), 500);
	CHECK_EQ(calls, 5);

	now_ns = 6000 + 1000 * 1000; /* 1001 deadlines passed */
	CHECK_EQ(ktimer_run(&kt), 1000);
	CHECK_EQ(calls, 5 + KTIMER_BURST);
	now_ns += 1000;
	CHECK_EQ(ktimer_run(&kt), 1000);
	CHECK_EQ(calls, 6 + KTIMER_BURST);

	call_cost = 300;
	now_ns += 1000;
	CHECK_EQ(ktimer_run(&kt), 700);
	call_cost = 5000; /* a call longer than the interval: sleep the least */
	now_ns += 700;
	CHECK_EQ(ktimer_run(&kt), 1);

	ktimer_init(&kt, 0, tick, &calls);
	CHECK_EQ(kt.kt_interval, 1);
	return TEST_DONE();
}
