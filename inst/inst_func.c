/*
 * inst/inst_func.c: the probes of one function, as DTrace's pid provider
 * names them (and fbt reuses): `entry` on its first instruction, `return`
 * on every return site the ISA reports (returns and tail-call jumps; one
 * probe, many sites), and an offset probe named by the instruction's
 * offset in lower-case hex without a prefix.  A name that is a glob makes
 * every matching kind: `*` gives entry, return and every offset.
 *
 * The caller (a provider) has already matched module and function; this
 * file reads the function's text through dtrace_port_text_read(), walks
 * its instructions with the ISA, creates each probe with
 * dtrace_probe_create() (so it must hold no core lock) and attaches it to
 * its sites.  A probe's argument is an inst_fprobe_t, whose enable,
 * disable and destroy the provider forwards to inst_fprobe_*.  Not probe
 * context.
 */
#include "inst_impl.h"

#define INST_FUNC_MAXSIZE ((size_t)1 << 20) /* larger "functions" are data */

typedef struct func_walk {
	uintptr_t fw_addr;
	size_t fw_size;
	uint32_t *fw_offs;   /* instruction boundaries */
	uint8_t *fw_isret;   /* parallel: a return site */
	size_t fw_n, fw_cap;
	bool fw_decoded;     /* isa_func_sites reached the end */
} func_walk_t;

static int
walk_cb(size_t off, int kind, void *arg)
{
	func_walk_t *fw = arg;

	if (kind == ISA_SITE_RETURN) {
		/* reported after the boundary of the same instruction */
		if (fw->fw_n > 0 && fw->fw_offs[fw->fw_n - 1] == off)
			fw->fw_isret[fw->fw_n - 1] = 1;
		return 0;
	}
	if (fw->fw_n == fw->fw_cap)
		return 1;
	fw->fw_offs[fw->fw_n] = (uint32_t)off;
	fw->fw_isret[fw->fw_n] = 0;
	fw->fw_n++;
	return 0;
}

static void
func_walk_free(func_walk_t *fw)
{
	if (fw->fw_offs != NULL)
		dtrace_port_free(fw->fw_offs, fw->fw_cap * sizeof(uint32_t));
	if (fw->fw_isret != NULL)
		dtrace_port_free(fw->fw_isret, fw->fw_cap);
}

/* Read and decode the function: boundaries and return sites. */
static int
func_walk(void *as, uintptr_t addr, size_t size, func_walk_t *fw)
{
	uint8_t *text;
	int err, rv;

	memset(fw, 0, sizeof(*fw));
	fw->fw_addr = addr;
	fw->fw_size = size;
	if (size == 0 || size > INST_FUNC_MAXSIZE)
		return DTRACE_EINVAL;
	if ((text = dtrace_port_zalloc(size)) == NULL)
		return DTRACE_ENOMEM;
	if ((err = dtrace_port_text_read(as, addr, text, size)) != 0) {
		dtrace_port_free(text, size);
		return err;
	}
	fw->fw_cap = size;
	fw->fw_offs = dtrace_port_zalloc(size * sizeof(uint32_t));
	fw->fw_isret = dtrace_port_zalloc(size);
	if (fw->fw_offs == NULL || fw->fw_isret == NULL) {
		dtrace_port_free(text, size);
		func_walk_free(fw);
		return DTRACE_ENOMEM;
	}
	rv = isa_func_sites(text, size, addr, walk_cb, fw);
	fw->fw_decoded = rv == 0;
	dtrace_port_free(text, size);
	return 0;
}

static bool
func_is_boundary(const func_walk_t *fw, size_t off)
{
	for (size_t i = 0; i < fw->fw_n; i++)
		if (fw->fw_offs[i] == off)
			return true;
	return false;
}

static void
fprobe_free_sites(inst_fprobe_t *fp)
{
	if (fp->ifp_sites != NULL)
		dtrace_port_free(fp->ifp_sites, fp->ifp_nsites * sizeof(fp->ifp_sites[0]));
	fp->ifp_sites = NULL;
	fp->ifp_nsites = 0;
}

/* Sites for addrs[0..n), each carrying probe `id`, in a new array of
 * *np.  A return site the port refuses (DTRACE_ENOTSUP) is left out. */
static int
fprobe_sites(const inst_func_req_t *rq, dtrace_id_t id, inst_kind_t kind, const uintptr_t *addrs,
	     size_t *np, inst_site_t ***sitesp)
{
	inst_site_t **sites, *site;
	size_t i, n = *np, got = 0;
	int err = 0;

	if ((sites = dtrace_port_zalloc(n * sizeof(sites[0]))) == NULL)
		return DTRACE_ENOMEM;
	for (i = 0; i < n && err == 0; i++) {
		if ((err = inst_site_get(rq->ifr_as, rq->ifr_key, addrs[i], &site)) == 0 &&
		    (err = inst_site_add_probe(site, id, kind, rq->ifr_addr)) == 0)
			sites[got++] = site;
		else if (err == DTRACE_ENOTSUP && kind == INST_RETURN)
			err = 0;
	}
	if (err == 0 && got == 0)
		err = DTRACE_ENOTSUP;
	if (err != 0) {
		while (got-- > 0)
			inst_site_remove_probe(sites[got], id);
		dtrace_port_free(sites, n * sizeof(sites[0]));
		return err;
	}
	/* the array keeps its allocated size n: fprobe_free_sites frees
	 * ifp_nsites entries, so shrink by copying when sites were left out */
	if (got != n) {
		inst_site_t **fit = dtrace_port_zalloc(got * sizeof(fit[0]));

		if (fit == NULL) {
			while (got-- > 0)
				inst_site_remove_probe(sites[got], id);
			dtrace_port_free(sites, n * sizeof(sites[0]));
			return DTRACE_ENOMEM;
		}
		memcpy(fit, sites, got * sizeof(fit[0]));
		dtrace_port_free(sites, n * sizeof(sites[0]));
		sites = fit;
	}
	*np = got;
	*sitesp = sites;
	return 0;
}

static bool
fprobe_gone(const inst_fprobe_t *fp)
{
	for (size_t i = 0; i < fp->ifp_nsites; i++)
		if (!fp->ifp_sites[i]->is_dead)
			return false;
	return true;
}

static void
req_lock(const inst_func_req_t *rq, bool take)
{
	if (rq->ifr_lock != NULL)
		rq->ifr_lock(take);
}

/* Make (or find, or move) one probe over the given sites. */
static int
func_probe(const inst_func_req_t *rq, const char *name, inst_kind_t kind, const uintptr_t *addrs,
	   size_t n)
{
	inst_site_t **sites;
	inst_fprobe_t *fp;
	dtrace_id_t id;
	int err;

	if ((id = dtrace_probe_lookup(rq->ifr_prov, rq->ifr_mod, rq->ifr_func, name)) != 0) {
		if ((fp = dtrace_probe_arg(rq->ifr_prov, id)) == NULL)
			return 0;
		req_lock(rq, true);
		err = 0;
		if (fprobe_gone(fp)) {
			/* its object was unloaded and has come back: move it */
			if ((err = fprobe_sites(rq, id, kind, addrs, &n, &sites)) == 0) {
				fprobe_free_sites(fp);
				fp->ifp_sites = sites;
				fp->ifp_nsites = n;
				if (fp->ifp_enabled) {
					fp->ifp_enabled = false;
					err = inst_fprobe_enable(fp);
				}
			}
		}
		req_lock(rq, false);
		return err;
	}
	if ((fp = dtrace_port_zalloc(sizeof(*fp))) == NULL)
		return DTRACE_ENOMEM;
	fp->ifp_kind = kind;
	/* the id comes first: sites carry it */
	id = dtrace_probe_create(rq->ifr_prov, rq->ifr_mod, rq->ifr_func, name, 0, fp);
	if (id == 0) {
		dtrace_port_free(fp, sizeof(*fp));
		return DTRACE_ENOMEM;
	}
	fp->ifp_id = id;
	req_lock(rq, true);
	if ((err = fprobe_sites(rq, id, kind, addrs, &n, &sites)) == 0) {
		fp->ifp_sites = sites;
		fp->ifp_nsites = n;
		if (rq->ifr_made != NULL)
			rq->ifr_made(fp, rq->ifr_made_arg);
	}
	req_lock(rq, false);
	if (err != 0)
		(void)dtrace_probe_destroy(rq->ifr_prov, id); /* frees fp */
	return err;
}

int
inst_func_probe(const inst_func_req_t *rq, const char *name, inst_kind_t kind,
		const uintptr_t *addrs, size_t n)
{
	if (n == 0)
		return DTRACE_EINVAL;
	return func_probe(rq, name, kind, addrs, n);
}

static bool
name_is_glob(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '*' || *s == '?' || *s == '[' || *s == '\\')
			return true;
	return false;
}

/* Parse a lower- or upper-case hex offset without prefix, as strtoull
 * with base 16 takes it (an optional 0x is accepted). */
static bool
parse_hex(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (x >> 60)
			return false;
		x = x * 16 + (uint64_t)d;
	}
	*v = x;
	return true;
}

static void
hex_name(uint64_t v, char *buf)
{
	char tmp[17];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0);
	while (n > 0)
		*buf++ = tmp[--n];
	*buf = '\0';
}

int
inst_func_probes(const inst_func_req_t *rq, const char *name, inst_func_err_t *why)
{
	func_walk_t fw;
	uintptr_t *rets = NULL;
	size_t i, nret = 0;
	bool glob = name_is_glob(name);
	uint64_t off;
	int err = 0, matched = 0;
	char buf[24];

	*why = INST_FUNC_OK;
	if (dtrace_match_glob("return", name) || glob) {
		if ((err = func_walk(rq->ifr_as, rq->ifr_addr, rq->ifr_size, &fw)) != 0)
			return err;
	} else {
		memset(&fw, 0, sizeof(fw));
	}

	if (dtrace_match_glob("return", name)) {
		if (!fw.fw_decoded) {
			*why = INST_FUNC_UNDECODED;
			err = DTRACE_EINVAL;
			goto out;
		}
		for (i = 0; i < fw.fw_n; i++)
			nret += fw.fw_isret[i];
		if (nret > 0) {
			if ((rets = dtrace_port_zalloc(nret * sizeof(rets[0]))) == NULL) {
				err = DTRACE_ENOMEM;
				goto out;
			}
			nret = 0;
			for (i = 0; i < fw.fw_n; i++)
				if (fw.fw_isret[i])
					rets[nret++] = rq->ifr_addr + fw.fw_offs[i];
			if ((err = func_probe(rq, "return", INST_RETURN, rets, nret)) != 0)
				goto out;
		}
		matched++;
	}
	if (dtrace_match_glob("entry", name)) {
		if ((err = func_probe(rq, "entry", INST_ENTRY, &rq->ifr_addr, 1)) != 0)
			goto out;
		matched++;
	}
	if (!glob && matched == 0) {
		uintptr_t at;

		if (!parse_hex(name, &off)) {
			*why = INST_FUNC_BADNAME;
			err = DTRACE_EINVAL;
			goto out;
		}
		if (off >= rq->ifr_size) {
			*why = INST_FUNC_OUTSIDE;
			err = DTRACE_EINVAL;
			goto out;
		}
		if ((err = func_walk(rq->ifr_as, rq->ifr_addr, rq->ifr_size, &fw)) != 0)
			goto out;
		if (!func_is_boundary(&fw, (size_t)off)) {
			*why = INST_FUNC_ALIGN;
			err = DTRACE_EINVAL;
			goto out;
		}
		at = rq->ifr_addr + (uintptr_t)off;
		hex_name(off, buf);
		if ((err = func_probe(rq, buf, INST_OFFSET, &at, 1)) != 0)
			goto out;
		matched++;
	} else if (glob) {
		for (i = 0; i < fw.fw_n; i++) {
			uintptr_t at = rq->ifr_addr + fw.fw_offs[i];

			hex_name(fw.fw_offs[i], buf);
			if (!dtrace_match_glob(buf, name))
				continue;
			if ((err = func_probe(rq, buf, INST_OFFSET, &at, 1)) != 0)
				goto out;
		}
		matched++;
	}
out:
	if (rets != NULL)
		dtrace_port_free(rets, nret * sizeof(rets[0]));
	func_walk_free(&fw);
	return err != 0 ? err : 0;
}

int
inst_fprobe_enable(inst_fprobe_t *fp)
{
	size_t i;
	int err;

	if (fp->ifp_enabled)
		return 0;
	for (i = 0; i < fp->ifp_nsites; i++) {
		if (fp->ifp_sites[i]->is_dead)
			continue;
		if ((err = inst_probe_enable(fp->ifp_sites[i], fp->ifp_id)) != 0) {
			while (i-- > 0)
				inst_probe_disable(fp->ifp_sites[i], fp->ifp_id);
			return err;
		}
	}
	fp->ifp_enabled = true;
	return 0;
}

void
inst_fprobe_disable(inst_fprobe_t *fp)
{
	for (size_t i = 0; i < fp->ifp_nsites; i++)
		inst_probe_disable(fp->ifp_sites[i], fp->ifp_id);
	fp->ifp_enabled = false;
}

void
inst_fprobe_destroy(inst_fprobe_t *fp)
{
	for (size_t i = 0; i < fp->ifp_nsites; i++)
		inst_site_remove_probe(fp->ifp_sites[i], fp->ifp_id);
	fprobe_free_sites(fp);
	dtrace_port_free(fp, sizeof(*fp));
}
