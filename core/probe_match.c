/*
 * core/probe_match.c: matching probe descriptions against probes.
 *
 * A description (provider:module:function:name, each possibly empty or a
 * glob) is compiled into a dtrace_probekey_t that picks, per field, one of
 * four matchers: exact string, glob, empty (matches anything) and
 * non-empty.  As in DTrace, a description whose four fields are all empty
 * matches only probes with a function ("anchored" probes), never BEGIN/END.
 *
 * Globs follow D's rules: '*' any run, '?' one character, '[...]' a set with
 * ranges and '!' negation, '\' escaping the next character.  The only
 * recursion is on '*', and it is bounded by DTRACE_PROBEKEY_MAXDEPTH: a
 * pattern that needs more is an error (the consumer gets EINVAL), never a
 * runaway.
 *
 * Privilege: a probe is visible to a consumer holding `priv` and `uid` if
 * the consumer has some DTrace privilege, shares a privilege bit with the
 * provider (or the provider needs none), and, when the provider is owned by
 * a user, is that user or holds DTRACE_PRIV_OWNER.
 *
 * Called with DTRACE_LOCK_FRAMEWORK held; never in probe context.
 */
#include <limits.h>

#include "dtrace_impl.h"

int
dtrace_match_globf(const char *s, const char *p, int depth)
{
	if (depth > DTRACE_PROBEKEY_MAXDEPTH)
		return -1;
	if (s == NULL)
		s = "";

	for (;;) {
		char c = *p++;

		if (c == '\0')
			return *s == '\0';

		switch (c) {
		case '*':
			while (*p == '*')
				p++;
			if (*p == '\0')
				return 1;
			for (;; s++) {
				int r = dtrace_match_globf(s, p, depth + 1);
				if (r != 0)
					return r;
				if (*s == '\0')
					return 0;
			}

		case '?':
			if (*s++ == '\0')
				return 0;
			break;

		case '[': {
			bool negate = false, found = false, have_lo = false;
			char lo = '\0';

			if (*s == '\0')
				return 0;
			if (*p == '!') {
				negate = true;
				p++;
			}
			/* the first member is literal, even a ']' */
			if ((c = *p++) == '\0')
				return 0;
			do {
				if (c == '-' && have_lo && *p != ']') {
					char hi = *p++;
					if (hi == '\\')
						hi = *p++;
					if (hi == '\0')
						return 0;
					if (lo <= *s && *s <= hi)
						found = true;
					have_lo = false;
				} else {
					if (c == '\\' && (c = *p++) == '\0')
						return 0;
					if (*s == c)
						found = true;
					lo = c;
					have_lo = true;
				}
				if ((c = *p++) == '\0')
					return 0; /* unterminated set */
			} while (c != ']');
			if (found == negate)
				return 0;
			s++;
			break;
		}

		case '\\':
			if ((c = *p++) == '\0')
				return 0;
			/* FALLTHROUGH */
		default:
			if (*s++ != c)
				return 0;
			break;
		}
	}
}

bool
dtrace_match_glob(const char *str, const char *pattern)
{
	return dtrace_match_globf(str, pattern, 0) > 0;
}

int
dtrace_match_string(const char *s, const char *p, int depth)
{
	(void)depth;
	return s != NULL && dtrace_strcmp(s, p) == 0;
}

int
dtrace_match_nul(const char *s, const char *p, int depth)
{
	(void)s;
	(void)p;
	(void)depth;
	return 1;
}

int
dtrace_match_nonzero(const char *s, const char *p, int depth)
{
	(void)p;
	(void)depth;
	return s != NULL && s[0] != '\0';
}

static dtrace_probekey_f *
dtrace_probekey_func(const char *p)
{
	if (p == NULL || *p == '\0')
		return dtrace_match_nul;
	for (; *p != '\0'; p++) {
		if (*p == '[' || *p == '?' || *p == '*' || *p == '\\')
			return dtrace_match_globf;
	}
	return dtrace_match_string;
}

void
dtrace_probekey(const dtrace_probedesc_t *desc, dtrace_probekey_t *key)
{
	key->dtpk_prov = desc->dtpd_provider;
	key->dtpk_pmatch = dtrace_probekey_func(desc->dtpd_provider);
	key->dtpk_mod = desc->dtpd_mod;
	key->dtpk_mmatch = dtrace_probekey_func(desc->dtpd_mod);
	key->dtpk_func = desc->dtpd_func;
	key->dtpk_fmatch = dtrace_probekey_func(desc->dtpd_func);
	key->dtpk_name = desc->dtpd_name;
	key->dtpk_nmatch = dtrace_probekey_func(desc->dtpd_name);
	key->dtpk_id = desc->dtpd_id;

	if (key->dtpk_id == DTRACE_IDNONE && key->dtpk_pmatch == dtrace_match_nul &&
	    key->dtpk_mmatch == dtrace_match_nul && key->dtpk_fmatch == dtrace_match_nul &&
	    key->dtpk_nmatch == dtrace_match_nul)
		key->dtpk_fmatch = dtrace_match_nonzero;
}

bool
dtrace_match_priv(const dtrace_probe_t *probe, uint32_t priv, uint32_t uid)
{
	const dtrace_ppriv_t *pp = &probe->dtpr_provider->dtpv_priv;
	uint32_t ppriv = pp->dtpp_flags, common;

	if (priv == DTRACE_PRIV_ALL)
		return true;
	if ((priv & (DTRACE_PRIV_PROC | DTRACE_PRIV_USER | DTRACE_PRIV_KERNEL)) == 0)
		return false;
	common = priv & ppriv;
	if (common == 0 && ppriv != 0)
		return false;
	/* an owned provider whose owner bit the consumer lacks: same uid only */
	if (((ppriv & ~common) & DTRACE_PRIV_OWNER) != 0 && uid != pp->dtpp_uid)
		return false;
	return true;
}

int
dtrace_match_probe(const dtrace_probe_t *probe, const dtrace_probekey_t *key, uint32_t priv,
		   uint32_t uid)
{
	const dtrace_provider_t *prov = probe->dtpr_provider;
	int rv;

	if (prov->dtpv_defunct != 0)
		return 0;
	if ((rv = key->dtpk_pmatch(prov->dtpv_name, key->dtpk_prov, 0)) <= 0)
		return rv;
	if ((rv = key->dtpk_mmatch(probe->dtpr_mod, key->dtpk_mod, 0)) <= 0)
		return rv;
	if ((rv = key->dtpk_fmatch(probe->dtpr_func, key->dtpk_func, 0)) <= 0)
		return rv;
	if ((rv = key->dtpk_nmatch(probe->dtpr_name, key->dtpk_name, 0)) <= 0)
		return rv;
	if (!dtrace_match_priv(probe, priv, uid))
		return 0;
	return rv;
}

int
dtrace_match(const dtrace_probekey_t *key, uint32_t priv, uint32_t uid,
	     int (*fn)(dtrace_probe_t *, void *), void *arg)
{
	static const struct {
		size_t matchoff, stroff;
		int which;
	} fields[] = {
		{offsetof(dtrace_probekey_t, dtpk_mmatch), offsetof(dtrace_probekey_t, dtpk_mod),
		 DTRACE_HASH_MOD},
		{offsetof(dtrace_probekey_t, dtpk_fmatch), offsetof(dtrace_probekey_t, dtpk_func),
		 DTRACE_HASH_FUNC},
		{offsetof(dtrace_probekey_t, dtpk_nmatch), offsetof(dtrace_probekey_t, dtpk_name),
		 DTRACE_HASH_NAME},
	};
	int nmatched = 0, best = INT_MAX, which = -1, rc;
	const char *beststr = NULL;
	dtrace_probe_t *probe;

	if (key->dtpk_id != DTRACE_IDNONE) {
		probe = dtrace_probe_lookup_id(key->dtpk_id);
		if (probe == NULL || dtrace_match_probe(probe, key, priv, uid) <= 0)
			return 0;
		return fn(probe, arg) == DTRACE_MATCH_FAIL ? DTRACE_MATCH_FAIL : 1;
	}

	/* walk the shortest hash chain among the exactly named fields */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		dtrace_probekey_f *m =
			*(dtrace_probekey_f *const *)((const char *)key + fields[i].matchoff);
		const char *str = *(const char *const *)((const char *)key + fields[i].stroff);
		int len;

		if (m != dtrace_match_string)
			continue;
		if ((len = dtrace_probe_hash_count(fields[i].which, str)) < best) {
			best = len;
			which = fields[i].which;
			beststr = str;
		}
	}

	if (which < 0) {
		for (dtrace_id_t i = 0; i < dtrace_nprobes; i++) {
			if ((probe = dtrace_probes[i]) == NULL)
				continue;
			/* a pattern too deep to evaluate matches nothing (as DTrace) */
			if (dtrace_match_probe(probe, key, priv, uid) <= 0)
				continue;
			nmatched++;
			if ((rc = fn(probe, arg)) != DTRACE_MATCH_NEXT)
				return rc == DTRACE_MATCH_FAIL ? DTRACE_MATCH_FAIL : nmatched;
		}
		return nmatched;
	}

	for (probe = dtrace_probe_hash_first(which, beststr); probe != NULL;
	     probe = dtrace_probe_hash_next(which, probe)) {
		if (dtrace_match_probe(probe, key, priv, uid) <= 0)
			continue;
		nmatched++;
		if ((rc = fn(probe, arg)) != DTRACE_MATCH_NEXT)
			return rc == DTRACE_MATCH_FAIL ? DTRACE_MATCH_FAIL : nmatched;
	}
	return nmatched;
}
