/*
 * compile_probes.h: the fixed probe list the compiler's tests compile
 * against (dt_cops_t over a table instead of a core).
 *
 * syscall::read:entry has typed arguments (int, char *, size_t) so args[]
 * typing can be tested; every other probe is untyped.
 */
#ifndef COMPILE_PROBES_H
#define COMPILE_PROBES_H

#include <stdio.h>
#include <string.h>

#include "dt_compile.h"

static const dtrace_probedesc_t ct_probes[] = {
	{1, "dtrace", "", "", "BEGIN"},
	{2, "dtrace", "", "", "END"},
	{3, "dtrace", "", "", "ERROR"},
	{4, "syscall", "", "read", "entry"},
	{5, "syscall", "", "read", "return"},
	{6, "profile", "", "", "tick-1s"},
};

static int
ct_glob(const char *p, const char *s)
{
	if (*p == '\0')
		return *s == '\0';
	if (*p == '*')
		return ct_glob(p + 1, s) || (*s != '\0' && ct_glob(p, s + 1));
	if (*s != '\0' && (*p == '?' || *p == *s))
		return ct_glob(p + 1, s + 1);
	return 0;
}

static int
ct_field(const char *p, const char *s)
{
	return *p == '\0' || ct_glob(p, s);
}

static int
ct_match(void *arg, const dtrace_probedesc_t *pd, dtrace_probedesc_t *first)
{
	int n = 0;
	(void)arg;
	for (size_t i = 0; i < sizeof(ct_probes) / sizeof(ct_probes[0]); i++) {
		const dtrace_probedesc_t *p = &ct_probes[i];
		if (ct_field(pd->dtpd_provider, p->dtpd_provider) && ct_field(pd->dtpd_mod, p->dtpd_mod) &&
		    ct_field(pd->dtpd_func, p->dtpd_func) && ct_field(pd->dtpd_name, p->dtpd_name)) {
			if (n++ == 0 && first != NULL)
				*first = *p;
		}
	}
	return n;
}

static int
ct_arg(void *arg, dtrace_argdesc_t *a)
{
	static const char *t[] = {"int", "char *", "size_t"};
	(void)arg;
	if (a->dtargd_id != 4)
		return -1;
	if (a->dtargd_ndx > 2) {
		a->dtargd_ndx = DTRACE_ARGNONE;
		return 0;
	}
	snprintf(a->dtargd_native, sizeof(a->dtargd_native), "%s", t[a->dtargd_ndx]);
	return 0;
}

static void
ct_opts(dt_copts_t *o, uint32_t flags)
{
	memset(o, 0, sizeof(*o));
	o->flags = flags;
	o->pspec = DTRACE_PROBESPEC_NAME;
	o->ops.probe_match = ct_match;
	o->ops.probe_arg = ct_arg;
}

/* As `dtrace -s' compiles: from a file named `name', so errors carry line numbers. */
static inline dt_cprog_t *
ct_compile_file(const char *src, uint32_t flags, const char *name)
{
	dt_copts_t o;
	FILE *f = fmemopen((void *)src, strlen(src), "r");
	dt_cprog_t *p;

	ct_opts(&o, flags);
	o.filename = name;
	if (f == NULL)
		return NULL;
	p = dt_compile_file(f, &o);
	fclose(f);
	return p;
}

#endif /* COMPILE_PROBES_H */
