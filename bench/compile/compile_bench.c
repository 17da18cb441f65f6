/*
 * compile_bench.c: time to compile a generated D script of 1,000 clauses
 * (predicates, thread-locals, aggregations, printf) to DOF.  Target: < 1 s.
 * Then an enum of 20,000 enumerators (each name is checked against the
 * enum's others and every identifier).  Target: < 0.2 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dt_compile.h"

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	size_t cap = (size_t)n * 256 + 1, len = 0;
	char *src = malloc(cap);
	struct timespec t0, t1;

	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(src + len, cap - len,
					"tick-%ds /pid != %d && self->t%d == 0/ { self->t%d = timestamp; "
					"@a%d[probename, %d] = quantize(timestamp - self->t%d); "
					"printf(\"%%d %%s\\n\", %d, execname); }\n",
					i + 1, i, i % 50, i % 50, i % 20, i, i % 50, i);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	dt_cprog_t *p = dt_compile_string(src, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (p == NULL || p->err.failed) {
		fprintf(stderr, "compile failed: %s\n", p != NULL ? p->err.text : "out of memory");
		return 1;
	}
	printf("compile: %d clauses, %zu bytes of D, %zu bytes of DOF, %.3f s (target < 1 s)\n", n, len,
	       p->dof_size, s);
	dt_cprog_free(p);
	free(src);

	int ne = 20000;
	cap = (size_t)ne * 12 + 64;
	if ((src = malloc(cap)) == NULL)
		return 1;
	len = (size_t)snprintf(src, cap, "enum big {");
	for (int i = 0; i < ne; i++)
		len += (size_t)snprintf(src + len, cap - len, "%s E%d", i == 0 ? "" : ",", i);
	len += (size_t)snprintf(src + len, cap - len, " };\nBEGIN { trace(E%d); }\n", ne - 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p = dt_compile_string(src, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (p == NULL || p->err.failed) {
		fprintf(stderr, "compile failed: %s\n", p != NULL ? p->err.text : "out of memory");
		return 1;
	}
	printf("compile: an enum of %d enumerators, %.3f s (target < 0.2 s)\n", ne, s);
	dt_cprog_free(p);
	free(src);
	return 0;
}
