/*
 * Probe matching with D's rules, through DTRACE_CTL_PROBEMATCH: exact
 * fields, empty fields matching anything, globs ('*', '?', sets, ranges,
 * '!' negation, '\' escapes), an all-empty description matching only
 * probes with a function (never BEGIN/END/ERROR), the privilege filter
 * (provider privilege bits, owned providers), and a pattern too deep to
 * evaluate refused with EINVAL.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dof_builder.h"
#include "dtrace_impl.h"
#include "nop_provider.h"
#include "test_util.h"


/* Count the probes PROBEMATCH yields for prov:mod:func:name, as libdtrace
 * iterates: start at id 0, continue after each probe returned. */
static int
count(dtrace_state_t *st, const char *prov, const char *mod, const char *func, const char *name,
      int *err)
{
	dtrace_probedesc_t d;
	dtrace_id_t next = 0;
	int n = 0, e;

	for (;;) {
		memset(&d, 0, sizeof(d));
		d.dtpd_id = next;
		strcpy(d.dtpd_provider, prov);
		strcpy(d.dtpd_mod, mod);
		strcpy(d.dtpd_func, func);
		strcpy(d.dtpd_name, name);
		if ((e = dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &d, NULL)) != 0)
			break;
		n++;
		next = d.dtpd_id + 1;
	}
	if (err != NULL)
		*err = e;
	return n;
}

static void
test_globs(void)
{
	static const struct {
		const char *str, *pat;
		bool match;
	} g[] = {
		{"read", "read", true},	    {"read", "rea", false},   {"read", "*", true},
		{"", "*", true},	    {"read", "r*d", true},    {"read", "r*x", false},
		{"read", "?ead", true},	    {"ead", "?ead", false},   {"read", "[pqr]ead", true},
		{"read", "[a-c]ead", false}, {"bead", "[a-c]ead", true}, {"read", "[!r]ead", false},
		{"lead", "[!r]ead", true},  {"]", "[]]", true},	      {"a*", "a\\*", true},
		{"ab", "a\\*", false},      {"a-", "a[-]", true},     {"x", "[", false},
		{"abc", "a**c", true},	    {"abc", "*b*", true},     {"abc", "*d*", false},
	};
	dtrace_state_t *st;
	int err;

	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		if (dtrace_match_glob(g[i].str, g[i].pat) != g[i].match)
			fprintf(stderr, "glob \"%s\" ~ \"%s\" wrong\n", g[i].str, g[i].pat);
		CHECK(dtrace_match_glob(g[i].str, g[i].pat) == g[i].match);
	}

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK_EQ(count(st, "syscall", "", "read", "entry", NULL), 1);
	CHECK_EQ(count(st, "syscall", "", "read", "", NULL), 2);
	CHECK_EQ(count(st, "syscall", "", "", "", NULL), 7);
	CHECK_EQ(count(st, "sys*", "", "", "", NULL), 7);
	CHECK_EQ(count(st, "", "", "", "entry", NULL), 6); /* + fbt and pid42 */
	CHECK_EQ(count(st, "syscall", "", "*read", "entry", NULL), 2);
	CHECK_EQ(count(st, "syscall", "", "?read", "entry", NULL), 1);	 /* pread */
	CHECK_EQ(count(st, "syscall", "", "[a-q]*", "return", NULL), 1); /* pread */
	CHECK_EQ(count(st, "syscall", "", "[!p]*", "entry", NULL), 3);	 /* read open star* */
	CHECK_EQ(count(st, "syscall", "", "[]x]", "", NULL), 0);
	CHECK_EQ(count(st, "syscall", "", "*\\*", "", NULL), 1); /* "star*" */
	CHECK_EQ(count(st, "syscall", "", "star\\*", "entry", NULL), 1);
	CHECK_EQ(count(st, "syscall", "", "st?r*", "", NULL), 1);
	CHECK_EQ(count(st, "syscall", "", "[", "", NULL), 0); /* unterminated set */
	CHECK_EQ(count(st, "syscall", "nosuch", "", "", NULL), 0);
	/* listing with an empty description: every probe, as `dtrace -l` */
	CHECK_EQ(count(st, "", "", "", "", NULL), 12);
	CHECK_EQ(count(st, "dtrace", "", "", "", NULL), 3);
	CHECK_EQ(count(st, "dtrace", "", "", "BEGIN", NULL), 1);
	/* too many stars to evaluate against "abcdefghijkl": an error */
	count(st, "syscall", "", "*a*b*c*d*e*f*g*h*i*j*k*", "", &err);
	CHECK_EQ(err, DTRACE_EINVAL);
	CHECK_EQ(count(st, "syscall", "", "*a*b*c*", "", &err), 1);
	CHECK_EQ(err, DTRACE_ESRCH);
	dtrace_state_close(st);

	/* enabling an empty description: only probes with a function, not BEGIN */
	{
		dofb_t b;
		int rv = -1;

		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
		dofb_init(&b);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "", "", "", ""), DOF_SECIDX_NONE,
			     DOF_SECIDX_NONE, 0);
		dofb_finish(&b);
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), 0);
		CHECK_EQ(rv, 9);
		dofb_fini(&b);
		dtrace_state_close(st);
	}
}

int
main(void)
{
	dtrace_provider_id_t sys, kern, own;

	CHECK_EQ(nop_start(1), 0);
	CHECK_EQ(nop_register("syscall", DTRACE_PRIV_USER, &sys), 0);
	dtrace_probe_create(sys, "", "read", "entry", 0, NULL);
	dtrace_probe_create(sys, "", "read", "return", 0, NULL);
	dtrace_probe_create(sys, "", "open", "entry", 0, NULL);
	dtrace_probe_create(sys, "", "pread", "entry", 0, NULL);
	dtrace_probe_create(sys, "", "pread", "return", 0, NULL);
	dtrace_probe_create(sys, "", "star*", "entry", 0, NULL);
	dtrace_probe_create(sys, "", "abcdefghijkl", "x", 0, NULL);
	CHECK_EQ(nop_register("fbt", DTRACE_PRIV_KERNEL, &kern), 0);
	dtrace_probe_create(kern, "kernel", "vfs_read", "entry", 0, NULL);
	CHECK_EQ(dtrace_register_owned("pid42", &nop_attr, DTRACE_PRIV_PROC | DTRACE_PRIV_OWNER,
				       1000, &nop_ops, NULL, &own),
		 0);
	dtrace_probe_create(own, "a.out", "main", "entry", 0, NULL);

	test_globs();

	/* privileges: a user-privileged consumer sees syscall, not fbt */
	{
		dtrace_state_t *st;

		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_USER, 1000, &st), 0);
		CHECK_EQ(count(st, "syscall", "", "", "", NULL), 7);
		CHECK_EQ(count(st, "fbt", "", "", "", NULL), 0);
		CHECK_EQ(count(st, "pid42", "", "", "", NULL), 0); /* no PROC bit */
		dtrace_state_close(st);

		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_PROC, 1000, &st), 0);
		CHECK_EQ(count(st, "pid42", "", "", "", NULL), 1); /* the owner */
		dtrace_state_close(st);
		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_PROC, 1001, &st), 0);
		CHECK_EQ(count(st, "pid42", "", "", "", NULL), 0); /* someone else */
		dtrace_state_close(st);
		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_PROC | DTRACE_PRIV_OWNER, 1001, &st), 0);
		CHECK_EQ(count(st, "pid42", "", "", "", NULL), 1); /* may see all owners */
		dtrace_state_close(st);
		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_KERNEL, 0, &st), 0);
		CHECK_EQ(count(st, "fbt", "", "", "", NULL), 1);
		dtrace_state_close(st);
	}

	CHECK_EQ(dtrace_unregister(sys), 0);
	CHECK_EQ(dtrace_unregister(kern), 0);
	CHECK_EQ(dtrace_unregister(own), 0);
	CHECK_EQ(nop_stop(), 0);
	return TEST_DONE();
}
