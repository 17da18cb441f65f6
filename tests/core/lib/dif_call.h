/*
 * tests/core/lib/dif_call.h: call one DIF subroutine from a test.
 *
 * call(subr, args...) assembles "push each argument; call subr; ret", loads
 * it into the harness's state and runs it in a new firing (or, with
 * call_again(), in the current one: strtok() continues there).  Arguments:
 *   S("text")  a string in the DIFO's string table, pushed with PUSHTR
 *   V(n)       an integer (or a pointer), pushed with PUSHTV
 */
#ifndef DTRACE_DIF_CALL_H
#define DTRACE_DIF_CALL_H

#include "dif_harness.h"

typedef struct targ {
	const char *s; /* NULL: integer */
	uint64_t v;
} targ_t;

#define S(str) ((targ_t){(str), 0})
#define V(n) ((targ_t){NULL, (uint64_t)(n)})

static dif_env_t env;
static dif_env_t *e = &env;

/*
 * DIFOs of the current firing stay loaded until the next one starts: results
 * may point into their string tables (strstr(), strtok()'s saved position).
 */
static dtrace_difo_t *call_live[32];
static int call_nlive;

static void
call_release_all(void)
{
	while (call_nlive > 0)
		dtrace_difo_release(call_live[--call_nlive], env_vs(e));
}

static uint64_t
call_args(bool fresh, uint32_t subr, int n, const targ_t *a)
{
	dif_instr_t ins[3 * 8 + 3];
	uint64_t ints[8];
	char strs[1024];
	uint32_t ni = 0, ns = 0, k = 0;
	dtrace_difo_t *dp;
	uint64_t r;

	for (int i = 0; i < n; i++) {
		if (a[i].s != NULL) {
			size_t len = strlen(a[i].s) + 1;

			memcpy(strs + ns, a[i].s, len);
			ins[k++] = SETS(ns, 1);
			ins[k++] = PUSHTR(DIF_TYPE_STRING, 0, 1);
			ns += (uint32_t)len;
		} else {
			ints[ni] = a[i].v;
			ins[k++] = SETX(ni, 1);
			ins[k++] = PUSHTV(1);
			ni++;
		}
	}
	ins[k++] = CALL(subr, 3);
	ins[k++] = I(FLUSHTS, 0, 0, 0);
	ins[k++] = RET(3);
	if (fresh) {
		call_release_all();
		env_fire(e);
	}
	dp = env_load(e, mkdifo(ins, k, ints, ni, strs, ns, NULL, 0));
	r = env_run(e, dp);
	if (dp != NULL) {
		if (call_nlive == (int)NELEM(call_live))
			call_release_all();
		call_live[call_nlive++] = dp;
	}
	return r;
}

/* The DIF offset of the CALL in a call() program with n arguments. */
#define CALL_OFFSET(n) ((uint32_t)(2 * (n) * sizeof(dif_instr_t)))

#define call(subr, ...)                                                                    \
	({                                                                                 \
		targ_t a_[] = {__VA_ARGS__};                                               \
		call_args(true, subr, NELEM(a_), a_);                                      \
	})
#define call0(subr) call_args(true, subr, 0, NULL)
#define call_again(subr, ...)                                                              \
	({                                                                                 \
		targ_t a_[] = {__VA_ARGS__};                                               \
		call_args(false, subr, NELEM(a_), a_);                                     \
	})

/* The string a call returned (or "(null)"). */
static inline const char *
STR(uint64_t x)
{
	return x != 0 ? (const char *)(uintptr_t)x : "(null)";
}

#endif /* DTRACE_DIF_CALL_H */
