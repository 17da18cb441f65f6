/*
 * Probe context -- the consumer's own included -- looks variables up in a
 * dynamic-variable store that traced processes can write.  Whatever its
 * links say, a lookup ends, never returns or writes through anything but a
 * whole chunk of the store, and counts a drop when it met corruption:
 *   - a hash chain leading out of the store (into a chain that loops
 *     there), or looping inside it;
 *   - a free list leading out of the store (cut, not popped);
 *   - a by-reference key whose bytes the chunk says are elsewhere (no
 *     match, even where those bytes would match);
 *   - a variable whose data pointer leaves its chunk
 *     (dtrace_dynvar_data() refuses it);
 *   - a bucket lock left held: a free gives up instead of spinning on.
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

#define CHUNK 128 /* room for a by-reference key */

/* A fake variable outside the store, linked to itself. */
static _Alignas(64) char decoy[4 * CHUNK];

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
drops(void)
{
	uint64_t d, di, r;

	dtrace_dstate_drops(ds(), &d, &di, &r);
	return d;
}

static void
fresh_store(void)
{
	ds()->dtds_chunksize = CHUNK;
	CHECK_EQ(dtrace_dstate_init(ds(), CHUNK * 40), 0);
	env_fire(e);
}

/* Every bucket's chain starts at dv. */
static void
all_chains_at(dtrace_dynvar_t *dv)
{
	for (size_t i = 0; i < ds()->dtds_hashsize; i++)
		ds()->dtds_hash[i].dtdh_chain = dv;
}

static void
test_chains_leaving_or_looping(void)
{
	dtrace_dynvar_t *fake = (dtrace_dynvar_t *)(void *)decoy, *a;
	uint64_t d;

	fresh_store();
	memset(decoy, 0, sizeof(decoy));
	fake->dtdv_hashval = DTRACE_DYNHASH_VALID + 1;
	fake->dtdv_next = fake;
	all_chains_at(fake);
	d = drops();
	CHECK(var(1, DTRACE_DYNVAR_NOALLOC) == NULL);
	CHECK_EQ(drops(), d + 1);
	env_fire(e);
	CHECK(var(1, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(), d + 2);
	CHECK(fake->dtdv_next == fake);
	dtrace_dstate_fini(ds());

	/* a chunk of the store that links to itself */
	fresh_store();
	a = var(1, DTRACE_DYNVAR_ALLOC);
	CHECK(a != NULL);
	a->dtdv_next = a;
	all_chains_at(a);
	d = drops();
	CHECK(var(2, DTRACE_DYNVAR_NOALLOC) == NULL);
	CHECK_EQ(drops(), d + 1);
	/* a link into the middle of the store's hash table */
	a->dtdv_next = (dtrace_dynvar_t *)ds()->dtds_base;
	env_fire(e);
	CHECK(var(2, DTRACE_DYNVAR_NOALLOC) == NULL);
	CHECK_EQ(drops(), d + 2);
	dtrace_dstate_fini(ds());
}

static void
test_free_list_leaving(void)
{
	dtrace_dstate_percpu_t *p0;
	uint64_t d;

	fresh_store();
	p0 = &ds()->dtds_percpu[0];
	memset(decoy, 0x5a, sizeof(decoy));
	p0->dtdsc_free = (dtrace_dynvar_t *)(void *)decoy;
	d = drops();
	CHECK(var(1, DTRACE_DYNVAR_ALLOC) == NULL);
	CHECK_EQ(drops(), d + 1);
	CHECK(p0->dtdsc_free == NULL); /* cut */
	for (size_t i = 0; i < sizeof(decoy); i++)
		CHECK_EQ((unsigned char)decoy[i], 0x5a);
	dtrace_dstate_fini(ds());
}

static void
test_keys_and_data_elsewhere(void)
{
	uint64_t value = 0x1122334455667788ULL, d;
	dtrace_key_t key[2] = {{(uintptr_t)&value, sizeof(value)}, {0, 0}};
	dtrace_dynvar_t *a;

	fresh_store();
	a = dtrace_dynvar(ds(), 2, key, 8, DTRACE_DYNVAR_ALLOC, &e->m, env_vs(e));
	CHECK(a != NULL);
	CHECK(dtrace_dynvar(ds(), 2, key, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == a);
	CHECK(dtrace_dynvar_data(ds(), a, 8) == a->dtdv_data);

	/* the key's bytes "elsewhere", where they would match */
	memcpy(decoy, &value, sizeof(value));
	a->dtdv_tuple.dtt_key[0].dttk_value = (uintptr_t)decoy;
	env_fire(e);
	CHECK(dtrace_dynvar(ds(), 2, key, 8, DTRACE_DYNVAR_NOALLOC, &e->m, env_vs(e)) == NULL);
	CHECK_NOFAULT(e);

	/* the data outside the chunk, or too near its end for the value */
	a->dtdv_data = decoy;
	CHECK(dtrace_dynvar_data(ds(), a, 8) == NULL);
	a->dtdv_data = (char *)a + CHUNK - 4;
	CHECK(dtrace_dynvar_data(ds(), a, 8) == NULL);
	a->dtdv_data = (char *)a + 8; /* inside the header */
	CHECK(dtrace_dynvar_data(ds(), a, 8) == NULL);

	/* a drop is counted for the caller that meets it */
	d = drops();
	dtrace_dynvar_drop(ds(), &e->m);
	CHECK_EQ(drops(), d + 1);
	dtrace_dstate_fini(ds());
}

static void
test_lock_left_held(void)
{
	uint64_t d;

	fresh_store();
	CHECK(var(1, DTRACE_DYNVAR_ALLOC) != NULL);
	for (size_t i = 0; i < ds()->dtds_hashsize; i++)
		ds()->dtds_hash[i].dtdh_lock = 1;
	d = drops();
	env_fire(e);
	CHECK(var(1, DTRACE_DYNVAR_DEALLOC) == NULL);
	CHECK_EQ(drops(), d + 1);
	/* lookups do not take the lock: the variable is still there */
	env_fire(e);
	CHECK(var(1, DTRACE_DYNVAR_NOALLOC) != NULL);
	dtrace_dstate_fini(ds());
}

int
main(void)
{
	env_init(e, 1);
	test_chains_leaving_or_looping();
	test_free_list_leaving();
	test_keys_and_data_elsewhere();
	test_lock_left_held();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
