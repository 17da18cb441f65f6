/*
 * kernel/kchill.c: dtrace_port_chill (port.h §9), the same on every kernel:
 * spin on the port's gethrtime until `ns` nanoseconds have passed.  Probe
 * context: yes (interrupts stay blocked, as DTrace's chill() keeps them;
 * the core bounds how long a CPU may chill in a second).
 */
#include "dtrace.h"

void
dtrace_port_chill(uint64_t ns)
{
	uint64_t end = dtrace_port_gethrtime() + ns;

	while (dtrace_port_gethrtime() < end)
		continue;
}
