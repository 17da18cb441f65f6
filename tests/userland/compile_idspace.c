/*
 * compile_idspace.c: D_ID_OFLOW.  Variable ids run from DIF_VAR_OTHER_UBASE
 * to below DIF_VAR_OTHER_MAX (DTrace's dt_idhash_nextid), so a table holds
 * 64255 names; the next one is refused, not given an id the 16-bit
 * variable field of DIF cannot hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_probes.h"
#include "ct_check.h"

static void
test_id_overflow(void)
{
	static const struct {
		const char *decl, *table;
	} kinds[] = {{"int", "global"}, {"self int", "thread local"}, {"this int", "clause local"}};
	const int n = DIF_VAR_OTHER_MAX - DIF_VAR_OTHER_UBASE + 1;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t cap = (size_t)n * 20 + 64, len = 0;
		char *src = malloc(cap), want[128];
		dt_cprog_t *p;

		if (src == NULL)
			return;
		for (int i = 0; i < n; i++)
			len += (size_t)snprintf(src + len, cap - len, "%s v%d; ", kinds[k].decl, i);
		snprintf(src + len, cap - len, "\nBEGIN { exit(0); }");
		snprintf(want, sizeof(want), "line 1: cannot create v%d: limit on number of %s variables exceeded",
			 n - 1, kinds[k].table);
		/* v0..v64254 are created: the error names the next one */
		p = ct_compile_file(src, 0, "test.d");
		CHECK(p != NULL && p->err.failed && strcmp(dt_errtag_name(p->err.tag), "D_ID_OFLOW") == 0 &&
		          strcmp(p->err.text, want) == 0,
		      "%s: got [%s] %s", kinds[k].table, p ? dt_errtag_name(p->err.tag) : "-",
		      p ? p->err.text : "NULL");
		dt_cprog_free(p);
		free(src);
	}
}

int
main(void)
{
	test_id_overflow();
	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
