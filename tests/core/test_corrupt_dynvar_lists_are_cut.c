/*
 * The dynamic-variable cleaner runs in the consumer on lists that probe
 * context -- in traced processes, which can write the store at will --
 * built.  Whatever those lists hold, cleaning finishes, hands probe context
 * only FREE chunks of the store, and counts a drop when it had to cut a
 * list: a link out of the store, a link into the middle of a chunk, a chunk
 * that is not free, or a cycle.  A CPU count in the store beyond the port's
 * is not believed, by the cleaner nor by STATUS.
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

#define CHUNK 64

static dtrace_dstate_t *
ds(void)
{
	return &env_vs(e)->dtvs_dynvars;
}

static dtrace_dynvar_t *
var(uint64_t k, dtrace_dynvar_op_t op)
{
	dtrace_key_t key[2] = {{k, 0}, {0, 0}};

	return dtrace_dynvar(ds(), 2, key, 8, op, &e->m, env_vs(e));
}

static uint64_t
plain_drops(void)
{
	uint64_t d, di, r;

	dtrace_dstate_drops(ds(), &d, &di, &r);
	return d;
}

/* Is dv one of the store's chunks? */
static bool
in_store(const dtrace_dynvar_t *dv)
{
	uintptr_t start = (uintptr_t)ds()->dtds_base + ds()->dtds_hashsize * sizeof(dtrace_dynhash_t);
	uintptr_t end = (uintptr_t)ds()->dtds_base + ds()->dtds_size;
	uintptr_t p = (uintptr_t)dv, chunk = ds()->dtds_chunksize;

	return p >= start && p + chunk <= end && (p - start) % chunk == 0;
}

/* The length of a list, or SIZE_MAX if it holds anything but FREE chunks of
 * the store or is longer than the store (a cycle). */
static size_t
list_length(const dtrace_dynvar_t *dv)
{
	size_t n = 0, max = ds()->dtds_size / ds()->dtds_chunksize;

	for (; dv != NULL; dv = dv->dtdv_next) {
		if (++n > max || !in_store(dv) || dv->dtdv_hashval != DTRACE_DYNHASH_FREE)
			return SIZE_MAX;
	}
	return n;
}

/* A fresh store with three variables freed: CPU 0's dirty list is c, b, a. */
static void
three_freed(dtrace_dynvar_t **a, dtrace_dynvar_t **b, dtrace_dynvar_t **c)
{
	ds()->dtds_chunksize = CHUNK;
	CHECK_EQ(dtrace_dstate_init(ds(), CHUNK * 40), 0);
	env_fire(e);
	*a = var(1, DTRACE_DYNVAR_ALLOC);
	*b = var(2, DTRACE_DYNVAR_ALLOC);
	*c = var(3, DTRACE_DYNVAR_ALLOC);
	CHECK(*a != NULL && *b != NULL && *c != NULL);
	var(1, DTRACE_DYNVAR_DEALLOC);
	var(2, DTRACE_DYNVAR_DEALLOC);
	var(3, DTRACE_DYNVAR_DEALLOC);
	CHECK(ds()->dtds_percpu[0].dtdsc_dirty == *c);
	CHECK_EQ(list_length(*c), 3);
}

/* After cleaning: the clean list is sound, and the store still works. */
static void
check_sound_after_clean(uint64_t drops_before, bool cut)
{
	dtrace_dstate_percpu_t *p0 = &ds()->dtds_percpu[0];

	CHECK(p0->dtdsc_dirty == NULL && p0->dtdsc_rinsing == NULL);
	CHECK(list_length(p0->dtdsc_clean) != SIZE_MAX);
	CHECK_EQ(plain_drops() - drops_before, cut ? 1 : 0);
	env_fire(e);
	for (uint64_t k = 100; k < 110; k++)
		CHECK(var(k, DTRACE_DYNVAR_ALLOC) != NULL);
	CHECK_NOFAULT(e);
}

static void
test_intact_list_is_not_cut(void)
{
	dtrace_dynvar_t *a, *b, *c;
	uint64_t d;

	three_freed(&a, &b, &c);
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(list_length(ds()->dtds_percpu[0].dtdsc_clean), 3);
	check_sound_after_clean(d, false);
	dtrace_dstate_fini(ds());
}

static void
test_cycle_is_cut(void)
{
	dtrace_dynvar_t *a, *b, *c;
	uint64_t d;

	three_freed(&a, &b, &c);
	a->dtdv_next = c; /* c -> b -> a -> c -> ... */
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());

	/* a chunk that points at itself */
	three_freed(&a, &b, &c);
	c->dtdv_next = c;
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());
}

static void
test_foreign_links_are_cut(void)
{
	static char elsewhere[1024] __attribute__((aligned(16)));
	dtrace_dynvar_t *a, *b, *c;
	uint64_t d;

	/* a link out of the store */
	three_freed(&a, &b, &c);
	b->dtdv_next = (dtrace_dynvar_t *)(void *)elsewhere;
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(list_length(ds()->dtds_percpu[0].dtdsc_clean), 2);
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());

	/* the head itself, an address that maps nothing */
	three_freed(&a, &b, &c);
	ds()->dtds_percpu[0].dtdsc_dirty = (dtrace_dynvar_t *)(uintptr_t)0x10;
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	CHECK(ds()->dtds_percpu[0].dtdsc_clean == NULL);
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());

	/* into the middle of a chunk */
	three_freed(&a, &b, &c);
	c->dtdv_next = (dtrace_dynvar_t *)(void *)((char *)b + 8);
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(list_length(ds()->dtds_percpu[0].dtdsc_clean), 1);
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());

	/* a chunk still in use (not FREE) */
	three_freed(&a, &b, &c);
	b->dtdv_hashval = 12345;
	d = plain_drops();
	dtrace_dynvar_clean(ds());
	CHECK_EQ(list_length(ds()->dtds_percpu[0].dtdsc_clean), 1);
	check_sound_after_clean(d, true);
	dtrace_dstate_fini(ds());
}

static void
test_cpu_count_beyond_the_port_is_ignored(void)
{
	dtrace_dynvar_t *a, *b, *c;
	uint64_t d, di, r;

	three_freed(&a, &b, &c);
	ds()->dtds_ncpus = 1u << 30;
	dtrace_dstate_drops(ds(), &d, &di, &r); /* reads one CPU's counters, no more */
	dtrace_dynvar_clean(ds());
	CHECK(ds()->dtds_percpu[0].dtdsc_clean == c);
	ds()->dtds_ncpus = 1;
	dtrace_dstate_fini(ds());
}

int
main(void)
{
	env_init(e, 1);
	test_intact_list_is_not_cut();
	test_cycle_is_cut();
	test_foreign_links_are_cut();
	test_cpu_count_beyond_the_port_is_ignored();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
