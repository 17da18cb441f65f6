/*
 * The dynamic-variable store: keys find their variable (by value and by
 * reference, never across thread-local and global name spaces), freed
 * chunks come back only after cleaning, exhaustion drops with the cause
 * DTrace reports (full, dirty, rinsing), CPUs borrow from each other before
 * dropping, chunks too small for a variable are refused, thread-locals are
 * private to their thread, and the store survives many threads and
 * collisions.
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

static dtrace_dstate_t *
ds(void)
{
	return &env_vs(e)->dtvs_dynvars;
}

static dtrace_dynvar_t *
op1(uint64_t k0, uint64_t k1, dtrace_dynvar_op_t op)
{
	dtrace_key_t key[2] = {{k0, 0}, {k1, 0}};

	return dtrace_dynvar(ds(), 2, key, 8, op, &e->m, env_vs(e));
}

static size_t
free_chunks(uint32_t cpu)
{
	size_t n = 0;

	for (dtrace_dynvar_t *d = ds()->dtds_percpu[cpu].dtdsc_free; d != NULL; d = d->dtdv_next)
		n++;
	return n;
}

static uint64_t
drops(int which)
{
	uint64_t d, di, r;

	dtrace_dstate_drops(ds(), &d, &di, &r);
	return which == 0 ? d : which == 1 ? di : r;
}

static void
test_lookup_insert_free(void)
{
	dtrace_dynvar_t *a, *b;

	ds()->dtds_chunksize = 64;
	CHECK_EQ(dtrace_dstate_init(ds(), 64 * 100), 0);
	env_fire(e);
	CHECK(op1(1, 2, DTRACE_DYNVAR_NOALLOC) == NULL);
	a = op1(1, 2, DTRACE_DYNVAR_ALLOC);
	CHECK(a != NULL);
	CHECK_EQ(*(uint64_t *)a->dtdv_data, 0); /* created zeroed */
	*(uint64_t *)a->dtdv_data = 99;
	CHECK(op1(1, 2, DTRACE_DYNVAR_NOALLOC) == a);
	CHECK(op1(1, 2, DTRACE_DYNVAR_ALLOC) == a); /* existing: no second copy */
	b = op1(2, 1, DTRACE_DYNVAR_ALLOC);	     /* order matters */
	CHECK(b != NULL && b != a);
	/* The data is D-writable memory; the header and keys are not. */
	CHECK(dtrace_dif_canstore((uintptr_t)a->dtdv_data, 8, &e->m, env_vs(e)));
	CHECK(!dtrace_dif_canstore((uintptr_t)a, 8, &e->m, env_vs(e)));
	CHECK(!dtrace_dif_canstore((uintptr_t)&a->dtdv_tuple.dtt_key[1], 8, &e->m, env_vs(e)));
	CHECK(!dtrace_dif_canstore((uintptr_t)ds()->dtds_hash, 8, &e->m, env_vs(e)));
	/* Freeing sends the chunk to the dirty list, not back to free. */
	size_t nfree = free_chunks(0);
	CHECK(op1(1, 2, DTRACE_DYNVAR_DEALLOC) == NULL);
	CHECK(op1(1, 2, DTRACE_DYNVAR_NOALLOC) == NULL);
	CHECK(op1(2, 1, DTRACE_DYNVAR_NOALLOC) == b);
	CHECK_EQ(free_chunks(0), nfree);
	CHECK(ds()->dtds_percpu[0].dtdsc_dirty == a);
	CHECK(!dtrace_dif_canstore((uintptr_t)a->dtdv_data, 8, &e->m, env_vs(e)));
	/* Freeing what does not exist is harmless. */
	CHECK(op1(7, 7, DTRACE_DYNVAR_DEALLOC) == NULL);
	dtrace_dstate_fini(ds());
}

static void
test_byref_keys_compare_contents(void)
{
	char k1[] = "hello", k2[] = "hello", k3[] = "hellp";
	dtrace_key_t a[2] = {{(uintptr_t)k1, 6}, {5, 0}};
	dtrace_key_t b[2] = {{(uintptr_t)k2, 6}, {5, 0}};
	dtrace_key_t c[2] = {{(uintptr_t)k3, 6}, {5, 0}};
	dtrace_key_t d[2] = {{(uintptr_t)k1, 5}, {5, 0}}; /* same bytes, other size */
	dtrace_key_t v[2] = {{(uintptr_t)k1, 0}, {5, 0}}; /* the pointer by value */
	dtrace_dynvar_t *x;

	ds()->dtds_chunksize = 128;
	CHECK_EQ(dtrace_dstate_init(ds(), 128 * 64), 0);
	env_fire(e);
	x = dtrace_dynvar(ds(), 2, a, 8, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e));
	CHECK(x != NULL);
	/* The key bytes were copied: changing the original changes nothing. */
	k1[0] = 'j';
	CHECK(dtrace_dynvar(ds(), 2, b, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == x);
	CHECK(dtrace_dynvar(ds(), 2, c, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == NULL);
	k1[0] = 'h';
	CHECK(dtrace_dynvar(ds(), 2, d, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == NULL);
	CHECK(dtrace_dynvar(ds(), 2, v, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == NULL);
	CHECK_STREQ((const char *)(uintptr_t)x->dtdv_tuple.dtt_key[0].dttk_value, "hello");
	/* A key the consumer may not read: KPRIV, nothing created. */
	e->m.dtms_access = DTRACE_ACCESS_ARGS;
	CHECK(dtrace_dynvar(ds(), 2, c, 8, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e)) == NULL);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_KPRIV);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	dtrace_dstate_fini(ds());
}

static void
test_exhaustion_drops_and_cleaning(void)
{
	size_t n = 0;
	uint64_t i;

	ds()->dtds_chunksize = 64;
	CHECK_EQ(dtrace_dstate_init(ds(), 64 * 40), 0);
	env_fire(e);
	for (i = 0; op1(i, 0, DTRACE_DYNVAR_ALLOC) != NULL; i++)
		n++;
	CHECK(n > 10);
	/* Full, nothing freed: a plain drop, and the DROP flag (not a fault). */
	CHECK_EQ(drops(0), 1);
	CHECK_EQ(drops(1), 0);
	CHECK(env_flags(e) & DTRACE_CPUF_DROP);
	CHECK_NOFAULT(e);
	CHECK(op1(1000, 0, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(0), 2);
	/* Existing variables are still found and written. */
	CHECK(op1(3, 0, DTRACE_DYNVAR_ALLOC) != NULL);

	/* Free one: the next allocation drops as "dirty" until cleaned. */
	op1(3, 0, DTRACE_DYNVAR_DEALLOC);
	ds()->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN; /* as a cleaning pass leaves it */
	CHECK(op1(2000, 0, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(1), 1);
	CHECK(op1(2001, 0, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(1), 2); /* the state remembers why until cleaned */

	/* Clean (outside probe context): a cross-call, then the chunk is reusable. */
	uint64_t xc = testport_xcalls();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(testport_xcalls() - xc, 2);
	CHECK_EQ(ds()->dtds_percpu[0].dtdsc_state, DTRACE_DSTATE_CLEAN);
	CHECK(ds()->dtds_percpu[0].dtdsc_clean != NULL);
	CHECK(op1(2000, 0, DTRACE_DYNVAR_ALLOC) != NULL);
	CHECK(ds()->dtds_percpu[0].dtdsc_clean == NULL);
	CHECK(op1(2002, 0, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(0), 3);
	/* Cleaning with nothing dirty does no cross-call. */
	xc = testport_xcalls();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(testport_xcalls(), xc);

	/* Rinsing: a dirty list set aside but not yet clean. */
	op1(5, 0, DTRACE_DYNVAR_DEALLOC);
	dtrace_dstate_percpu_t *p0 = &ds()->dtds_percpu[0];
	p0->dtdsc_rinsing = p0->dtdsc_dirty;
	p0->dtdsc_dirty = NULL;
	ds()->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN;
	CHECK(op1(3000, 0, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(2), 1);
	p0->dtdsc_clean = p0->dtdsc_rinsing;
	p0->dtdsc_rinsing = NULL;
	ds()->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN;
	CHECK(op1(3000, 0, DTRACE_DYNVAR_ALLOC) != NULL);
	dtrace_dstate_fini(ds());
}

static void
test_cpus_borrow_before_dropping(void)
{
	uint64_t i, n;

	testport_set_ncpus(4);
	ds()->dtds_chunksize = 64;
	CHECK_EQ(dtrace_dstate_init(ds(), 64 * 41), 0);
	size_t per = free_chunks(1);
	CHECK(per > 0 && free_chunks(0) == per && free_chunks(3) >= per);
	testport_set_cpu(2);
	env_fire(e);
	for (i = 0, n = 0; op1(i, 0, DTRACE_DYNVAR_ALLOC) != NULL; i++)
		n++;
	/* CPU 2 used every CPU's chunks before its first drop. */
	CHECK_EQ(n, free_chunks(0) + free_chunks(1) + free_chunks(2) + free_chunks(3) + n);
	CHECK_EQ(free_chunks(0) + free_chunks(1) + free_chunks(2) + free_chunks(3), 0);
	CHECK_EQ(ds()->dtds_percpu[2].dtdsc_drops, 1);

	/* A CPU that frees but never allocates has its dirty list rinsed by an
	 * idle CPU (its own clean list being full). */
	testport_set_cpu(1);
	env_fire(e);
	op1(0, 0, DTRACE_DYNVAR_DEALLOC);
	op1(1, 0, DTRACE_DYNVAR_DEALLOC);
	dtrace_dynvar_clean(ds());
	CHECK(ds()->dtds_percpu[1].dtdsc_clean != NULL);
	op1(2, 0, DTRACE_DYNVAR_DEALLOC);
	dtrace_dynvar_clean(ds());
	CHECK(ds()->dtds_percpu[1].dtdsc_dirty == NULL);
	CHECK(ds()->dtds_percpu[0].dtdsc_clean != NULL); /* CPU 0 rinsed it */
	testport_set_cpu(0);
	env_fire(e);
	CHECK(op1(100, 0, DTRACE_DYNVAR_ALLOC) != NULL);
	CHECK(op1(101, 0, DTRACE_DYNVAR_ALLOC) != NULL);
	CHECK(op1(102, 0, DTRACE_DYNVAR_ALLOC) != NULL);
	dtrace_dstate_fini(ds());
	testport_set_ncpus(1);
}

static void
test_chunks_too_small_are_refused(void)
{
	dtrace_key_t key[3] = {{1, 0}, {2, 0}, {3, 0}};

	ds()->dtds_chunksize = 0; /* the default */
	CHECK_EQ(dtrace_dstate_init(ds(), 16 * 1024), 0);
	CHECK_EQ(ds()->dtds_chunksize, DTRACE_DYNVAR_CHUNKSIZE);
	env_fire(e);
	CHECK(dtrace_dynvar(ds(), 3, key, 512, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e)) == NULL);
	CHECK_EQ(drops(0), 1);
	CHECK(dtrace_dynvar(ds(), 3, key, 64, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e)) != NULL);
	dtrace_dstate_fini(ds());
	/* A store that was never started answers nothing and drops nothing. */
	CHECK(dtrace_dynvar(ds(), 3, key, 8, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e)) == NULL);
}

static void
test_many_keys_in_few_buckets(void)
{
	uint64_t i;
	bool ok = true;

	ds()->dtds_chunksize = 64;
	CHECK_EQ(dtrace_dstate_init(ds(), 100 * 600), 0);
	env_fire(e);
	for (i = 0; i < 500; i++) {
		dtrace_dynvar_t *d = op1(i * 7919, i, DTRACE_DYNVAR_ALLOC);
		if (d == NULL) {
			ok = false;
			break;
		}
		*(uint64_t *)d->dtdv_data = i;
	}
	CHECK(ok);
	for (i = 0; i < 500; i += 2)
		op1(i * 7919, i, DTRACE_DYNVAR_DEALLOC);
	for (i = 0; i < 500; i++) {
		dtrace_dynvar_t *d = op1(i * 7919, i, DTRACE_DYNVAR_NOALLOC);
		if ((i & 1) ? d == NULL || *(uint64_t *)d->dtdv_data != i : d != NULL)
			ok = false;
	}
	CHECK(ok);
	dtrace_dynvar_clean(ds());
	for (i = 0; i < 500; i += 2)
		CHECK(op1(i * 7919, i, DTRACE_DYNVAR_ALLOC) != NULL);
	dtrace_dstate_fini(ds());
}

/* self->x = tid; the value each thread reads back is its own. */
static void
test_thread_locals_are_isolated(void)
{
	dtrace_difv_t v[2] = {
		mkvar(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TYPE_CTF, 0, 8),
		mkvar(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIF_TYPE_CTF, 0, 8),
	};
	dif_instr_t set[] = {LDV(LDGS, DIF_VAR_TID, 1), STV(STTS, 0x500, 1), RET(1)};
	dif_instr_t get[] = {LDV(LDTS, 0x500, 1), RET(1)};
	/* global a[x] where x = the thread-local's index: a different name space */
	dif_instr_t glob[] = {SETX(0, 1), PUSHTV(1), LDV(LDGAA, 0x500, 2), RET(2)};
	uint64_t zero[] = {0};
	dtrace_difo_t *ds_ = env_load(e, mkdifo(set, NELEM(set), NULL, 0, NULL, 0, v, 2));
	dtrace_difo_t *dg = env_load(e, mkdifo(get, NELEM(get), NULL, 0, NULL, 0, v, 2));
	dtrace_difo_t *da = env_load(e, mkdifo(glob, NELEM(glob), zero, 1, NULL, 0, v, 2));
	bool ok = true;

	env_go(e, 256 * 1024);
	for (uint64_t t = 1; t <= 200; t++) {
		testport_switch_thread(t);
		env_run1(e, ds_);
	}
	for (uint64_t t = 200; t >= 1; t--) {
		testport_switch_thread(t);
		if (env_run1(e, dg) != t)
			ok = false;
		if (env_run1(e, da) != 0)
			ok = false;
	}
	CHECK(ok);
	testport_switch_thread(999);
	CHECK_EQ(env_run1(e, dg), 0);
	dtrace_difo_release(ds_, env_vs(e));
	dtrace_difo_release(dg, env_vs(e));
	dtrace_difo_release(da, env_vs(e));
	env_fini(e);
}

static void
test_chunksize_follows_the_difos(void)
{
	dtrace_difv_t v[2] = {
		mkvar(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TYPE_CTF, DIF_TF_BYREF, 100),
		mkvar(0x501, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIF_TYPE_CTF, 0, 8),
	};
	uint64_t ints[] = {40};
	dif_instr_t s1[] = {SETX(0, 2), STV(STTS, 0x500, 2), RET(0)};
	dif_instr_t s2[] = {SETX(0, 2), SETX(0, 3), PUSHTR(DIF_TYPE_CTF, 3, 2), PUSHTV(2),
			    STV(STGAA, 0x501, 2), RET(0)};
	dtrace_difo_t *b = env_load(e, mkdifo(s2, NELEM(s2), ints, 1, NULL, 0, v, 2));
	size_t c2 = ds()->dtds_chunksize;
	dtrace_difo_t *a = env_load(e, mkdifo(s1, NELEM(s1), ints, 1, NULL, 0, v, 2));

	/* header + two more keys + 40 key bytes + 8 data bytes */
	CHECK_EQ(c2, (sizeof(dtrace_dynvar_t) + 2 * sizeof(dtrace_key_t) + 40 + 8 + 7) & ~7ul);
	/* the larger of that and: header + one more key + 100 bytes, rounded to 8 */
	CHECK_EQ(ds()->dtds_chunksize,
		 (sizeof(dtrace_dynvar_t) + sizeof(dtrace_key_t) + 100 + 7) & ~7ul);
	dtrace_difo_release(a, env_vs(e));
	dtrace_difo_release(b, env_vs(e));
	env_fini(e);
}

static void
test_allocation_failures_leave_nothing_behind(void)
{
	ds()->dtds_chunksize = 64;
	testport_alloc_fail_nth(1);
	CHECK_EQ(dtrace_dstate_init(ds(), 4096), DTRACE_ENOMEM);
	testport_alloc_fail_nth(2);
	CHECK_EQ(dtrace_dstate_init(ds(), 4096), DTRACE_ENOMEM);
	testport_alloc_fail_nth(0);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	CHECK_EQ(dtrace_dstate_init(ds(), 10), 0); /* grown to one chunk */
	CHECK(ds()->dtds_size >= 64);
	dtrace_dstate_fini(ds());
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

int
main(void)
{
	env_init(e, 1);
	test_lookup_insert_free();
	test_byref_keys_compare_contents();
	test_exhaustion_drops_and_cleaning();
	test_cpus_borrow_before_dropping();
	test_chunks_too_small_are_refused();
	test_many_keys_in_few_buckets();
	test_thread_locals_are_isolated();
	test_chunksize_follows_the_difos();
	test_allocation_failures_leave_nothing_behind();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
