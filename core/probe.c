/*
 * core/probe.c: the probe table and the three probe hashes.
 *
 * Probes live in one table indexed by id - 1 (ids are dense from 1 and the
 * lowest free id is reused, as DTrace's id arena does) and in three hashes
 * keyed by module, function and name.  Each hash bucket holds all probes
 * whose key string is equal, so the bucket length tells dtrace_match() how
 * selective an exact field is.
 *
 * Writers hold DTRACE_LOCK_FRAMEWORK.  Probe context reads only the table,
 * lock-free: a grown table is published before the larger count, and the old
 * table is freed only after dtrace_sync(), so a reader that sees a count
 * also sees a table at least that large.  A removed probe is freed only
 * after a dtrace_sync() too.
 *
 * Providers call dtrace_probe_create/lookup/arg/destroy without holding any
 * core lock (or from their dtps_provide callback, which the core calls with
 * only DTRACE_LOCK_PROVIDER held).
 */
#include "dtrace_impl.h"

uint64_t dtrace_probegen;
static dtrace_id_t dtrace_probe_freehint; /* no free slot below this index */

/* --- String hashes ------------------------------------------------------ */

typedef struct dtrace_hashbucket {
	struct dtrace_hashbucket *dthb_next;
	dtrace_probe_t *dthb_chain; /* probes whose key equals this bucket's */
	uint32_t dthb_len;
} dtrace_hashbucket_t;

typedef struct dtrace_probehash {
	dtrace_hashbucket_t **dth_tab;
	uint32_t dth_size; /* power of two */
	uint32_t dth_nbuckets;
} dtrace_probehash_t;

static dtrace_probehash_t dtrace_hashes[3]; /* DTRACE_HASH_MOD, _FUNC, _NAME */

static const char *
dtrace_hash_key(int which, const dtrace_probe_t *p)
{
	return which == DTRACE_HASH_MOD ? p->dtpr_mod
	       : which == DTRACE_HASH_FUNC ? p->dtpr_func
					   : p->dtpr_name;
}

static dtrace_probe_t **
dtrace_hash_nextp(int which, dtrace_probe_t *p)
{
	return which == DTRACE_HASH_MOD ? &p->dtpr_nextmod
	       : which == DTRACE_HASH_FUNC ? &p->dtpr_nextfunc
					   : &p->dtpr_nextname;
}

static dtrace_probe_t **
dtrace_hash_prevp(int which, dtrace_probe_t *p)
{
	return which == DTRACE_HASH_MOD ? &p->dtpr_prevmod
	       : which == DTRACE_HASH_FUNC ? &p->dtpr_prevfunc
					   : &p->dtpr_prevname;
}

/* FNV-1a: probe names are short and this runs only outside probe context. */
static uint32_t
dtrace_hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0') {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static dtrace_hashbucket_t *
dtrace_hash_bucket(int which, const char *str)
{
	dtrace_probehash_t *hash = &dtrace_hashes[which];
	dtrace_hashbucket_t *b = hash->dth_tab[dtrace_hash_str(str) & (hash->dth_size - 1)];

	for (; b != NULL; b = b->dthb_next) {
		if (dtrace_strcmp(dtrace_hash_key(which, b->dthb_chain), str) == 0)
			return b;
	}
	return NULL;
}

static void
dtrace_hash_grow(int which)
{
	dtrace_probehash_t *hash = &dtrace_hashes[which];
	uint32_t nsize = hash->dth_size << 1;
	dtrace_hashbucket_t **ntab = dtrace_port_zalloc(nsize * sizeof(*ntab));

	if (ntab == NULL)
		return; /* longer chains, still correct */
	for (uint32_t i = 0; i < hash->dth_size; i++) {
		dtrace_hashbucket_t *b, *next;
		for (b = hash->dth_tab[i]; b != NULL; b = next) {
			uint32_t ndx =
				dtrace_hash_str(dtrace_hash_key(which, b->dthb_chain)) & (nsize - 1);
			next = b->dthb_next;
			b->dthb_next = ntab[ndx];
			ntab[ndx] = b;
		}
	}
	dtrace_port_free(hash->dth_tab, hash->dth_size * sizeof(*ntab));
	hash->dth_tab = ntab;
	hash->dth_size = nsize;
}

static int
dtrace_hash_add(int which, dtrace_probe_t *p)
{
	dtrace_probehash_t *hash = &dtrace_hashes[which];
	const char *key = dtrace_hash_key(which, p);
	dtrace_hashbucket_t *b = dtrace_hash_bucket(which, key);

	if (b == NULL) {
		uint32_t ndx;

		if (hash->dth_nbuckets > 2 * hash->dth_size)
			dtrace_hash_grow(which);
		if ((b = dtrace_port_zalloc(sizeof(*b))) == NULL)
			return DTRACE_ENOMEM;
		ndx = dtrace_hash_str(key) & (hash->dth_size - 1);
		b->dthb_next = hash->dth_tab[ndx];
		hash->dth_tab[ndx] = b;
		hash->dth_nbuckets++;
	}
	*dtrace_hash_nextp(which, p) = b->dthb_chain;
	*dtrace_hash_prevp(which, p) = NULL;
	if (b->dthb_chain != NULL)
		*dtrace_hash_prevp(which, b->dthb_chain) = p;
	b->dthb_chain = p;
	b->dthb_len++;
	return 0;
}

static void
dtrace_hash_remove(int which, dtrace_probe_t *p)
{
	dtrace_probehash_t *hash = &dtrace_hashes[which];
	const char *key = dtrace_hash_key(which, p);
	dtrace_hashbucket_t *b = dtrace_hash_bucket(which, key);
	dtrace_probe_t *prev = *dtrace_hash_prevp(which, p);
	dtrace_probe_t *next = *dtrace_hash_nextp(which, p);

	if (b == NULL)
		return;
	if (prev != NULL)
		*dtrace_hash_nextp(which, prev) = next;
	else
		b->dthb_chain = next;
	if (next != NULL)
		*dtrace_hash_prevp(which, next) = prev;
	*dtrace_hash_nextp(which, p) = *dtrace_hash_prevp(which, p) = NULL;

	if (--b->dthb_len == 0) {
		uint32_t ndx = dtrace_hash_str(key) & (hash->dth_size - 1);
		dtrace_hashbucket_t **bp = &hash->dth_tab[ndx];

		while (*bp != b)
			bp = &(*bp)->dthb_next;
		*bp = b->dthb_next;
		dtrace_port_free(b, sizeof(*b));
		hash->dth_nbuckets--;
	}
}

int
dtrace_probe_hash_count(int which, const char *str)
{
	dtrace_hashbucket_t *b = dtrace_hash_bucket(which, str);

	return b != NULL ? (int)b->dthb_len : 0;
}

dtrace_probe_t *
dtrace_probe_hash_first(int which, const char *str)
{
	dtrace_hashbucket_t *b = dtrace_hash_bucket(which, str);

	return b != NULL ? b->dthb_chain : NULL;
}

dtrace_probe_t *
dtrace_probe_hash_next(int which, const dtrace_probe_t *p)
{
	return *dtrace_hash_nextp(which, (dtrace_probe_t *)p);
}

int
dtrace_probe_tables_init(void)
{
	for (int i = 0; i < 3; i++) {
		dtrace_hashes[i].dth_size = 64;
		dtrace_hashes[i].dth_nbuckets = 0;
		dtrace_hashes[i].dth_tab = dtrace_port_zalloc(64 * sizeof(dtrace_hashbucket_t *));
		if (dtrace_hashes[i].dth_tab == NULL) {
			dtrace_probe_tables_fini();
			return DTRACE_ENOMEM;
		}
	}
	dtrace_probegen = 1;
	dtrace_probe_freehint = 0;
	return 0;
}

void
dtrace_probe_tables_fini(void)
{
	for (int i = 0; i < 3; i++) {
		dtrace_probehash_t *hash = &dtrace_hashes[i];

		if (hash->dth_tab == NULL)
			continue;
		for (uint32_t j = 0; j < hash->dth_size; j++) {
			dtrace_hashbucket_t *b, *next;
			for (b = hash->dth_tab[j]; b != NULL; b = next) {
				next = b->dthb_next;
				dtrace_port_free(b, sizeof(*b));
			}
		}
		dtrace_port_free(hash->dth_tab, hash->dth_size * sizeof(dtrace_hashbucket_t *));
		hash->dth_tab = NULL;
		hash->dth_size = 0;
		hash->dth_nbuckets = 0;
	}
	if (dtrace_probes != NULL)
		dtrace_port_free(dtrace_probes, dtrace_nprobes * sizeof(dtrace_probe_t *));
	dtrace_probes = NULL;
	dtrace_nprobes = 0;
}

/* --- The probe table ---------------------------------------------------- */

/* Find (growing the table if needed) the lowest free slot; FRAMEWORK held. */
static dtrace_id_t
dtrace_probe_slot(void)
{
	dtrace_id_t n = dtrace_nprobes, i;
	dtrace_probe_t **otab = dtrace_probes, **ntab;
	dtrace_id_t nn;

	for (i = dtrace_probe_freehint; i < n; i++) {
		if (otab[i] == NULL)
			return i + 1;
	}
	nn = n == 0 ? 64 : n * 2;
	if (nn <= n) /* ids are 32 bits: the table is full */
		return 0;
	if ((ntab = dtrace_port_zalloc((size_t)nn * sizeof(*ntab))) == NULL)
		return 0;
	if (n != 0)
		memcpy(ntab, otab, (size_t)n * sizeof(*ntab));
	/* table before count: a reader seeing the new count sees the new table */
	dtrace_store_releaseptr((void *volatile *)&dtrace_probes, ntab);
	dtrace_store_release32(&dtrace_nprobes, nn);
	if (otab != NULL) {
		dtrace_sync();
		dtrace_port_free(otab, (size_t)n * sizeof(*otab));
	}
	return n + 1;
}

dtrace_probe_t *
dtrace_probe_lookup_id(dtrace_id_t id)
{
	if (id == 0 || id > dtrace_nprobes)
		return NULL;
	return dtrace_probes[id - 1];
}

void
dtrace_probe_free(dtrace_probe_t *probe)
{
	dtrace_strfree(probe->dtpr_mod);
	dtrace_strfree(probe->dtpr_func);
	dtrace_strfree(probe->dtpr_name);
	dtrace_port_free(probe, sizeof(*probe));
}

dtrace_id_t
dtrace_probe_create(dtrace_provider_id_t prov, const char *mod, const char *func,
		    const char *name, int aframes, void *parg_probe)
{
	dtrace_provider_t *provider = (dtrace_provider_t *)prov;
	dtrace_probe_t *probe;
	dtrace_id_t id;
	int which;

	if (provider == NULL)
		return 0;
	probe = dtrace_port_zalloc(sizeof(*probe));
	if (probe == NULL)
		return 0;
	probe->dtpr_mod = dtrace_strdup(mod);
	probe->dtpr_func = dtrace_strdup(func);
	probe->dtpr_name = dtrace_strdup(name);
	if (probe->dtpr_mod == NULL || probe->dtpr_func == NULL || probe->dtpr_name == NULL) {
		dtrace_probe_free(probe);
		return 0;
	}
	probe->dtpr_arg = parg_probe;
	probe->dtpr_aframes = aframes;
	probe->dtpr_provider = provider;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if ((id = dtrace_probe_slot()) == 0)
		goto fail;
	for (which = 0; which < 3; which++) {
		if (dtrace_hash_add(which, probe) != 0) {
			while (--which >= 0)
				dtrace_hash_remove(which, probe);
			goto fail;
		}
	}
	probe->dtpr_id = id;
	probe->dtpr_gen = dtrace_probegen++;
	provider->dtpv_nprobes++;
	dtrace_probe_freehint = id;
	dtrace_store_releaseptr((void *volatile *)&dtrace_probes[id - 1], probe);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return id;

fail:
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_probe_free(probe);
	return 0;
}

/* Take one probe out of the table and hashes; FRAMEWORK held. */
static void
dtrace_probe_unlink(dtrace_probe_t *probe)
{
	dtrace_id_t id = probe->dtpr_id;

	dtrace_store_releaseptr((void *volatile *)&dtrace_probes[id - 1], NULL);
	for (int which = 0; which < 3; which++)
		dtrace_hash_remove(which, probe);
	if (id - 1 < dtrace_probe_freehint)
		dtrace_probe_freehint = id - 1;
	probe->dtpr_provider->dtpv_nprobes--;
}

dtrace_probe_t *
dtrace_probe_unlink_provider(dtrace_provider_t *prov, bool unenabled)
{
	dtrace_probe_t *list = NULL;

	for (dtrace_id_t i = 0; i < dtrace_nprobes; i++) {
		dtrace_probe_t *probe = dtrace_probes[i];

		if (probe == NULL || probe->dtpr_provider != prov)
			continue;
		if (unenabled && probe->dtpr_ecb != NULL)
			continue;
		dtrace_probe_unlink(probe);
		probe->dtpr_nextmod = list;
		list = probe;
	}
	return list;
}

int
dtrace_probe_destroy(dtrace_provider_id_t prov, dtrace_id_t id)
{
	dtrace_provider_t *provider = (dtrace_provider_t *)prov;
	dtrace_probe_t *probe;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	probe = dtrace_probe_lookup_id(id);
	if (probe == NULL || probe->dtpr_provider != provider) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_ENOENT;
	}
	if (probe->dtpr_ecb != NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_EBUSY;
	}
	dtrace_probe_unlink(probe);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);

	dtrace_sync();
	provider->dtpv_pops.dtps_destroy(provider->dtpv_arg, id, probe->dtpr_arg);
	dtrace_probe_free(probe);
	return 0;
}

static int
dtrace_probe_lookup_match(dtrace_probe_t *probe, void *arg)
{
	*(dtrace_id_t *)arg = probe->dtpr_id;
	return DTRACE_MATCH_DONE;
}

dtrace_id_t
dtrace_probe_lookup(dtrace_provider_id_t prov, const char *mod, const char *func,
		    const char *name)
{
	dtrace_provider_t *provider = (dtrace_provider_t *)prov;
	dtrace_probekey_t key;
	dtrace_id_t id = 0;

	if (provider == NULL)
		return 0;
	/* NULL matches any value; a string (even "") matches exactly */
	key.dtpk_prov = provider->dtpv_name;
	key.dtpk_pmatch = dtrace_match_string;
	key.dtpk_mod = mod;
	key.dtpk_mmatch = mod != NULL ? dtrace_match_string : dtrace_match_nul;
	key.dtpk_func = func;
	key.dtpk_fmatch = func != NULL ? dtrace_match_string : dtrace_match_nul;
	key.dtpk_name = name;
	key.dtpk_nmatch = name != NULL ? dtrace_match_string : dtrace_match_nul;
	key.dtpk_id = DTRACE_IDNONE;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	(void)dtrace_match(&key, DTRACE_PRIV_ALL, 0, dtrace_probe_lookup_match, &id);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return id;
}

void *
dtrace_probe_arg(dtrace_provider_id_t prov, dtrace_id_t id)
{
	dtrace_probe_t *probe;
	void *arg = NULL;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if ((probe = dtrace_probe_lookup_id(id)) != NULL &&
	    probe->dtpr_provider == (dtrace_provider_t *)prov)
		arg = probe->dtpr_arg;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return arg;
}

void
dtrace_probe_description(const dtrace_probe_t *probe, dtrace_probedesc_t *desc)
{
	memset(desc, 0, sizeof(*desc));
	desc->dtpd_id = probe->dtpr_id;
	dtrace_strlcpy(desc->dtpd_provider, probe->dtpr_provider->dtpv_name,
		       sizeof(desc->dtpd_provider));
	dtrace_strlcpy(desc->dtpd_mod, probe->dtpr_mod, sizeof(desc->dtpd_mod));
	dtrace_strlcpy(desc->dtpd_func, probe->dtpr_func, sizeof(desc->dtpd_func));
	dtrace_strlcpy(desc->dtpd_name, probe->dtpr_name, sizeof(desc->dtpd_name));
}

void
dtrace_probe_provide(const dtrace_probedesc_t *desc, dtrace_provider_t *prv)
{
	dtrace_provider_t *p;

	if (prv != NULL) {
		prv->dtpv_pops.dtps_provide(prv->dtpv_arg, desc);
		return;
	}
	for (p = dtrace_providers; p != NULL; p = p->dtpv_next)
		p->dtpv_pops.dtps_provide(p->dtpv_arg, desc);
}
