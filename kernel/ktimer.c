/*
 * kernel/ktimer.c: a periodic timer's schedule (ktimer.h).
 */
#include "ktimer.h"

void
ktimer_init(ktimer_t *kt, uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	kt->kt_interval = interval_ns == 0 ? 1 : interval_ns;
	kt->kt_next = dtrace_port_gethrtime() + kt->kt_interval;
	kt->kt_fn = fn;
	kt->kt_arg = arg;
}

uint64_t
ktimer_run(ktimer_t *kt)
{
	uint64_t now = dtrace_port_gethrtime();

	for (int n = 0; kt->kt_next <= now && n < KTIMER_BURST; n++) {
		kt->kt_fn(kt->kt_arg);
		kt->kt_next += kt->kt_interval;
	}
	if (kt->kt_next <= now) /* fell behind: no backlog */
		kt->kt_next = now + kt->kt_interval;
	now = dtrace_port_gethrtime(); /* the calls took time */
	return kt->kt_next > now ? kt->kt_next - now : 1;
}
