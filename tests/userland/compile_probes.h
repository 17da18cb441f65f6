/*
 * compile_probes.h: the fixed probe list the compiler's tests compile
 * against (dt_cops_t over a table instead of a core).
 *
 * The table answers PROBEARG and PROVIDER as the core does (mapping
 * defaults to the argument's own index; a probe without typed arguments
 * answers DTRACE_ARGNONE) so args[] typing can be tested:
 * - syscall::read:* have plain native types; dtrace:::ERROR, as every
 *   probe of the dtrace provider, has none (DTrace's dtrace_provider_ops);
 * - io:::start (two probes, in two functions) has translated arguments: a
 *   struct buf * shown as bufinfo_t * and, through mapping 0, as
 *   devinfo_t * (DTrace's io provider); io:::done is untranslated;
 * - test:::native-unknown has a native type D cannot resolve,
 *   test:::xlate-unknown a translated one; test:::xlate-same names its
 *   native type again, test:::xlate-compat a compatible one;
 *   test:::differ names two probes whose argument types differ (int in
 *   moda, char * in modb) though their provider says they may not;
 * - profile probes have no typed arguments.
 * Stability is DTrace's: dtrace and profile as our core's, syscall's
 * arguments Private (illumos systrace), io and test arguments Evolving with
 * Private module and function names, so io:::start types args[] though it
 * matches two probes.
 */
#ifndef COMPILE_PROBES_H
#define COMPILE_PROBES_H

#include <stdbool.h>
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
    {7, "io", "genunix", "bdev_strategy", "start"},
    {8, "io", "nfs", "nfs4_bio", "start"},
    {9, "io", "genunix", "biodone", "done"},
    {10, "test", "", "", "native-unknown"},
    {11, "test", "", "", "xlate-unknown"},
    {12, "test", "", "", "xlate-same"},
    {13, "test", "", "", "xlate-compat"},
    {14, "test", "moda", "f", "differ"},
    {15, "test", "modb", "g", "differ"},
};

/* argument descriptions: probe id, native type, translated type, mapping */
static const struct ct_argtype {
	dtrace_id_t id;
	const char *native, *xlate;
	int mapping;
} ct_argtypes[] = {
    {4, "int", "", 0},
    {4, "char *", "", 1},
    {4, "size_t", "", 2},
    {5, "ssize_t", "", 0},
    {5, "ssize_t", "", 1},
    {7, "struct buf *", "bufinfo_t *", 0},
    {7, "struct buf *", "devinfo_t *", 0},
    {8, "struct buf *", "bufinfo_t *", 0},
    {8, "struct buf *", "devinfo_t *", 0},
    {9, "struct buf *", "", 0},
    {10, "struct nosuch *", "", 0},
    {11, "int", "nosuch_t", 0},
    {12, "long unsigned int", "long unsigned int", 0},
    {13, "int", "int32_t", 0},
    {14, "int", "", 0},
    {15, "char *", "", 0},
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
		bool hit = pd->dtpd_id != DTRACE_IDNONE
		               ? pd->dtpd_id == p->dtpd_id
		               : ct_field(pd->dtpd_provider, p->dtpd_provider) &&
		                     ct_field(pd->dtpd_mod, p->dtpd_mod) &&
		                     ct_field(pd->dtpd_func, p->dtpd_func) &&
		                     ct_field(pd->dtpd_name, p->dtpd_name);
		if (hit) {
			if (n++ == 0 && first != NULL)
				*first = *p;
		}
	}
	return n;
}

static int
ct_arg(void *arg, dtrace_argdesc_t *a)
{
	int n = 0;
	(void)arg;
	if (a->dtargd_id == DTRACE_IDNONE ||
	    a->dtargd_id > sizeof(ct_probes) / sizeof(ct_probes[0]))
		return -1;
	a->dtargd_native[0] = a->dtargd_xlate[0] = '\0';
	a->dtargd_mapping = a->dtargd_ndx;
	for (size_t i = 0; i < sizeof(ct_argtypes) / sizeof(ct_argtypes[0]); i++) {
		const struct ct_argtype *t = &ct_argtypes[i];
		if (t->id != a->dtargd_id || n++ != a->dtargd_ndx)
			continue;
		snprintf(a->dtargd_native, sizeof(a->dtargd_native), "%s", t->native);
		snprintf(a->dtargd_xlate, sizeof(a->dtargd_xlate), "%s", t->xlate);
		a->dtargd_mapping = t->mapping;
		return 0;
	}
	a->dtargd_ndx = DTRACE_ARGNONE;
	return 0;
}

static int
ct_provider_attr(void *arg, const char *name, dtrace_pattr_t *pa)
{
	static const dtrace_attribute_t
	    stable = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
	    evolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	    unstable = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN},
	    private = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};
	(void)arg;
	if (strcmp(name, "dtrace") == 0)
		*pa = (dtrace_pattr_t){stable, private, private, stable, stable};
	else if (strcmp(name, "syscall") == 0)
		*pa = (dtrace_pattr_t){evolving, private, private, evolving, private};
	else if (strcmp(name, "profile") == 0)
		*pa = (dtrace_pattr_t){evolving, unstable, private, evolving, evolving};
	else if (strcmp(name, "io") == 0 || strcmp(name, "test") == 0)
		*pa = (dtrace_pattr_t){evolving, private, private, evolving, evolving};
	else
		return -1;
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
	o->ops.provider_attr = ct_provider_attr;
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

/* As `dtrace -n' compiles: from a string, so errors carry no line number. */
static inline dt_cprog_t *
ct_compile(const char *src, uint32_t flags)
{
	dt_copts_t o;

	ct_opts(&o, flags);
	return dt_compile_string(src, &o);
}

#ifdef CT_CHECK_H
/* The program compiles to DOF. */
static inline void
ct_expect_ok(const char *src)
{
	dt_cprog_t *p = ct_compile(src, 0);

	CHECK(p != NULL && !p->err.failed && p->dof != NULL, "expected success for <%s>: %s", src,
	      p ? p->err.text : "NULL");
	dt_cprog_free(p);
}

/* The compilation `p' of `src' failed with this tag and message (and frees it). */
static inline void
ct_check_err(dt_cprog_t *p, const char *src, const char *tag, const char *text)
{
	CHECK(p != NULL && p->err.failed, "expected failure for <%s>", src);
	if (p != NULL && p->err.failed) {
		CHECK(strcmp(dt_errtag_name(p->err.tag), tag) == 0, "<%s>: tag %s, expected %s (%s)", src,
		      dt_errtag_name(p->err.tag), tag, p->err.text);
		CHECK(strcmp(p->err.text, text) == 0, "<%s>:\n  got      '%s'\n  expected '%s'", src,
		      p->err.text, text);
		CHECK(p->dof == NULL, "<%s>: no DOF on failure", src);
	}
	dt_cprog_free(p);
}
#endif

#endif /* COMPILE_PROBES_H */
