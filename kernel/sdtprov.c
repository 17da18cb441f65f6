/*
 * kernel/sdtprov.c: the sdt providers' shared bookkeeping (sdtprov.h).
 */
#include "sdtprov.h"

void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

static struct ksdt_prov {
	char sp_name[DTRACE_PROVNAMELEN];
	dtrace_provider_id_t sp_id;
	int sp_holds; /* 0: a free slot */
} ksdt_provs[KSDT_MAXPROV];

/* As the BSDs' sdt providers give it. */
const dtrace_pattr_t ksdt_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

void
ksdt_probename(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	if (size == 0)
		return;
	while (*src != '\0' && n + 1 < size) {
		if (src[0] == '_' && src[1] == '_') {
			dst[n++] = '-';
			src += 2;
		} else {
			dst[n++] = *src++;
		}
	}
	dst[n] = '\0';
}

/* The length of name, or `max` when it is that long or longer. */
static size_t
ksdt_len(const char *name, size_t max)
{
	size_t n = 0;

	while (n < max && name[n] != '\0')
		n++;
	return n;
}

static struct ksdt_prov *
ksdt_lookup(const char *name)
{
	size_t n = ksdt_len(name, DTRACE_PROVNAMELEN);

	for (int i = 0; i < KSDT_MAXPROV; i++) {
		if (ksdt_provs[i].sp_holds > 0 && n < DTRACE_PROVNAMELEN &&
		    memcmp(ksdt_provs[i].sp_name, name, n + 1) == 0)
			return &ksdt_provs[i];
	}
	return NULL;
}

dtrace_provider_id_t
ksdt_provider_hold(const char *name, const dtrace_pops_t *pops, void *parg)
{
	struct ksdt_prov *sp = ksdt_lookup(name);
	size_t n = ksdt_len(name, DTRACE_PROVNAMELEN);

	if (sp == NULL) {
		if (n == DTRACE_PROVNAMELEN)
			return 0;
		for (int i = 0; i < KSDT_MAXPROV && sp == NULL; i++) {
			if (ksdt_provs[i].sp_holds == 0)
				sp = &ksdt_provs[i];
		}
		if (sp == NULL ||
		    dtrace_register(name, &ksdt_attr, DTRACE_PRIV_USER, pops, parg, &sp->sp_id) != 0)
			return 0;
		memcpy(sp->sp_name, name, n + 1);
	}
	sp->sp_holds++;
	return sp->sp_id;
}

dtrace_provider_id_t
ksdt_provider_find(const char *name)
{
	struct ksdt_prov *sp = ksdt_lookup(name);

	return sp != NULL ? sp->sp_id : 0;
}

int
ksdt_provider_release(const char *name)
{
	struct ksdt_prov *sp = ksdt_lookup(name);
	int err;

	if (sp == NULL)
		return 0;
	if (sp->sp_holds == 1 && (err = dtrace_unregister(sp->sp_id)) != 0)
		return err;
	sp->sp_holds--;
	return 0;
}

int
ksdt_provider_release_all(void)
{
	int err;

	for (int i = KSDT_MAXPROV; i-- > 0;) {
		if (ksdt_provs[i].sp_holds == 0)
			continue;
		if ((err = dtrace_unregister(ksdt_provs[i].sp_id)) != 0)
			return err;
		ksdt_provs[i].sp_holds = 0;
	}
	return 0;
}

void
ksdt_provide_none(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
}

void
ksdt_destroy_none(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}
