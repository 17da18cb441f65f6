/*
 * port/linux/log.c: diagnostics on standard error (port.h section 12).
 * Not probe context: stdio is fine here.
 */
#include <stdio.h>
#include <string.h>

#include "linux_impl.h"

void
dtrace_port_log(const char *fmt, va_list ap)
{
	char buf[1024];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	fprintf(stderr, "dtrace: %s%s", buf, n > 0 && buf[n - 1] == '\n' ? "" : "\n");
}
