/*
 * core/framework.c: the framework's life cycle, the per-CPU core array, the
 * `dtrace` provider, and the small freestanding helpers every core file uses.
 *
 * dtrace_init() runs once, from the port, before any provider registers; it
 * sizes the per-CPU array from dtrace_port_ncpus() (constant for the life of
 * the port), builds the probe tables and registers the `dtrace` provider
 * with BEGIN, END and ERROR, which therefore get probe ids 1, 2 and 3.
 * dtrace_fini() undoes it and refuses while a consumer state is open or a
 * provider other than `dtrace` is still registered.
 *
 * The `dtrace` provider's probes fire only from the core itself:
 * BEGIN from dtrace_state_go(), END from dtrace_state_stop(), ERROR from the
 * ECB walker when an action faults.  Each firing passes the consumer state as
 * arg0 so that one consumer's ECBs never see another's meta-probes.
 *
 * Nothing here runs in probe context except dtrace_fault_code() and the
 * string helpers.
 */
#include "dtrace_impl.h"

dtrace_globals_t *dtrace_globals;
dtrace_state_t *dtrace_states;

static bool dtrace_initialized;

/* --- Strings: the core has no libc ------------------------------------- */

size_t
dtrace_strlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] != '\0')
		n++;
	return n;
}

int
dtrace_strcmp(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

size_t
dtrace_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = dtrace_strlen(src, SIZE_MAX);

	if (size != 0) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

char *
dtrace_strdup(const char *s)
{
	size_t len = s != NULL ? dtrace_strlen(s, SIZE_MAX) : 0;
	char *p = dtrace_port_zalloc(len + 1);

	if (p != NULL && len != 0)
		memcpy(p, s, len);
	return p;
}

void
dtrace_strfree(char *s)
{
	if (s != NULL)
		dtrace_port_free(s, dtrace_strlen(s, SIZE_MAX) + 1);
}

void
dtrace_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dtrace_port_log(fmt, ap);
	va_end(ap);
}

/* --- Probe-context helpers ---------------------------------------------- */

/* Fault flags in the order DTRACEFLT_* numbers them (illumos FLAGS2FLT). */
static const struct {
	uint32_t flag;
	uint64_t fault;
} dtrace_fault_table[] = {
	{DTRACE_CPUF_BADADDR, DTRACEFLT_BADADDR},     {DTRACE_CPUF_BADALIGN, DTRACEFLT_BADALIGN},
	{DTRACE_CPUF_ILLOP, DTRACEFLT_ILLOP},	      {DTRACE_CPUF_DIVZERO, DTRACEFLT_DIVZERO},
	{DTRACE_CPUF_NOSCRATCH, DTRACEFLT_NOSCRATCH}, {DTRACE_CPUF_KPRIV, DTRACEFLT_KPRIV},
	{DTRACE_CPUF_UPRIV, DTRACEFLT_UPRIV},	      {DTRACE_CPUF_TUPOFLOW, DTRACEFLT_TUPOFLOW},
	{DTRACE_CPUF_BADSTACK, DTRACEFLT_BADSTACK},
};

uint64_t
dtrace_fault_code(uint32_t cpuflags)
{
	for (size_t i = 0; i < sizeof(dtrace_fault_table) / sizeof(dtrace_fault_table[0]); i++) {
		if (cpuflags & dtrace_fault_table[i].flag)
			return dtrace_fault_table[i].fault;
	}
	return DTRACEFLT_UNKNOWN;
}

static void
dtrace_sync_func(void *arg)
{
	(void)arg;
}

void
dtrace_sync(void)
{
	dtrace_port_xcall(DTRACE_CPU_ALL, dtrace_sync_func, NULL);
}

/* --- The `dtrace` provider ---------------------------------------------- */

static const dtrace_pattr_t dtrace_provider_attr = {
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
	{DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON},
};

static void
dtrace_self_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
}

static int
dtrace_self_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
	return 0;
}

static void
dtrace_self_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static void
dtrace_self_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

/*
 * No argument descriptions (dtps_getargdesc NULL), as DTrace's own
 * dtrace_provider_ops: BEGIN, END and ERROR have untyped arguments, so
 * args[] is out of range in their clauses (D_ARGS_IDX) and dtrace -lv lists
 * their argument types as None.  ERROR's arg1..arg5 carry its values.
 */
static const dtrace_pops_t dtrace_self_pops = {
	dtrace_self_provide,	dtrace_self_enable,    dtrace_self_disable,
	NULL,			NULL,		       dtrace_self_destroy,
};

/* --- Life cycle --------------------------------------------------------- */

int
dtrace_init(void)
{
	dtrace_provider_id_t id;
	uint32_t ncpus;
	int err;

	if (dtrace_initialized || dtrace_globals != NULL)
		return DTRACE_EBUSY;

	ncpus = dtrace_port_ncpus();
	if (ncpus == 0)
		return DTRACE_EINVAL;
	if ((dtrace_globals = dtrace_port_zalloc(sizeof(dtrace_globals_t))) == NULL)
		return DTRACE_ENOMEM;
	dtrace_globals->dg_magic = DTRACE_GLOBALS_MAGIC;
	dtrace_globals->dg_size = (uint32_t)sizeof(dtrace_globals_t);
	dtrace_globals->dg_dynvar_sink.dtdv_hashval = DTRACE_DYNHASH_SINK;
	dtrace_cpu_core = dtrace_port_zalloc_probe(ncpus * sizeof(dtrace_cpu_core_t));
	if (dtrace_cpu_core == NULL) {
		dtrace_port_free(dtrace_globals, sizeof(dtrace_globals_t));
		dtrace_globals = NULL;
		return DTRACE_ENOMEM;
	}
	dtrace_ncpus = ncpus;
	for (uint32_t i = 0; i < ncpus; i++) {
		/* distinct, non-zero rand() seeds per CPU */
		dtrace_cpu_core[i].cpuc_rand[0] = 0x9e3779b97f4a7c15ULL * (i + 1);
		dtrace_cpu_core[i].cpuc_rand[1] = 0xbf58476d1ce4e5b9ULL ^ (i + 1);
	}

	if ((err = dtrace_probe_tables_init()) != 0)
		goto fail;

	if ((err = dtrace_register("dtrace", &dtrace_provider_attr, DTRACE_PRIV_NONE,
				   &dtrace_self_pops, NULL, &id)) != 0)
		goto fail_tables;
	dtrace_provider_self = (dtrace_provider_t *)id;

	dtrace_probeid_begin = dtrace_probe_create(id, NULL, NULL, "BEGIN", 0, NULL);
	dtrace_probeid_end = dtrace_probe_create(id, NULL, NULL, "END", 0, NULL);
	dtrace_probeid_error = dtrace_probe_create(id, NULL, NULL, "ERROR", 1, NULL);
	if (dtrace_probeid_begin == 0 || dtrace_probeid_end == 0 || dtrace_probeid_error == 0) {
		err = DTRACE_ENOMEM;
		goto fail_provider;
	}

	dtrace_initialized = true;
	return 0;

fail_provider:
	dtrace_initialized = true; /* let unregister run its checks */
	(void)dtrace_unregister(id);
	dtrace_initialized = false;
	dtrace_provider_self = NULL;
fail_tables:
	dtrace_probe_tables_fini();
fail:
	dtrace_port_free_probe(dtrace_cpu_core, ncpus * sizeof(dtrace_cpu_core_t));
	dtrace_port_free(dtrace_globals, sizeof(dtrace_globals_t));
	dtrace_globals = NULL;
	return err;
}

int
dtrace_fini(void)
{
	int err;

	if (!dtrace_initialized)
		return DTRACE_EINVAL;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	err = (dtrace_states != NULL || dtrace_providers != dtrace_provider_self ||
	       dtrace_provider_self->dtpv_next != NULL)
		      ? DTRACE_EBUSY
		      : 0;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	if (err != 0)
		return err;

	if ((err = dtrace_unregister((dtrace_provider_id_t)dtrace_provider_self)) != 0)
		return err;
	dtrace_provider_self = NULL;
	dtrace_probeid_begin = dtrace_probeid_end = dtrace_probeid_error = 0;
	dtrace_probe_tables_fini();
	dtrace_port_free_probe(dtrace_cpu_core, dtrace_ncpus * sizeof(dtrace_cpu_core_t));
	dtrace_port_free(dtrace_globals, sizeof(dtrace_globals_t));
	dtrace_globals = NULL;
	dtrace_initialized = false;
	return 0;
}

void *
dtrace_globals_handle(void)
{
	return dtrace_globals;
}

int
dtrace_attach(void *globals)
{
	const dtrace_globals_t *g = globals;

	if (dtrace_initialized)
		return DTRACE_EBUSY;
	if (g == NULL || g->dg_magic != DTRACE_GLOBALS_MAGIC ||
	    g->dg_size != (uint32_t)sizeof(dtrace_globals_t))
		return DTRACE_EINVAL;
	dtrace_globals = (dtrace_globals_t *)globals;
	return 0;
}

void
dtrace_detach(void)
{
	if (!dtrace_initialized)
		dtrace_globals = NULL;
}
