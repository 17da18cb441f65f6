/*
 * kernel/prov_fbt.c: the fbt provider (function boundary tracing) of a
 * kernel, on the instruction-probe engine (instprov.h).
 *
 * fbt:<module>:<function>:entry fires at the function's first instruction
 * with the argument registers; fbt:<module>:<function>:return at each of
 * its return sites (every return, and each jump out of the function, a tail
 * call) with arg0 the site's offset in the function and arg1 the return
 * value, as DTrace's fbt.  inst_func.c names and builds both probes from
 * the ISA's function walk; this file picks the functions.
 *
 * Probes are made when a description asks for them (the core passes it to
 * dtps_provide; NULL when a consumer opens, asking for every probe, which
 * with module pins, instprov.h, gives only the modules already pinned),
 * from the kernel's and every module's function symbols, skipping what
 * instprov_excluded() names,
 * functions without a compiled frame set-up (instprov_isa_frame) and
 * functions the decoder cannot follow to their end.  DTrace's fbt makes
 * every probe of a module when it loads; making them on demand keeps the
 * engine's sites to what consumers look at.
 */
#include "instprov.h"

/* Freestanding: the memory functions every kernel provides. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

static dtrace_provider_id_t fbt_id;

typedef struct fbt_walk {
	const dtrace_probedesc_t *fw_desc;
	const char *fw_modpat, *fw_funcpat;
	bool fw_entry, fw_return;
	const dtrace_port_module_t *fw_mod;
	instprov_mod_t *fw_rec;
} fbt_walk_t;

static void
fbt_ifr_lock(bool take)
{
	instprov_lock(take);
}

/* The boundaries and return sites of a function, from the ISA's walk. */
typedef struct fbt_sites {
	uint32_t *fs_offs;
	uint8_t *fs_ret;
	size_t fs_n, fs_cap;
} fbt_sites_t;

static int
fbt_site(size_t off, int kind, void *arg)
{
	fbt_sites_t *fs = arg;

	if (kind == ISA_SITE_RETURN) {
		if (fs->fs_n > 0 && fs->fs_offs[fs->fs_n - 1] == off)
			fs->fs_ret[fs->fs_n - 1] = 1;
		return 0;
	}
	if (fs->fs_n == fs->fs_cap)
		return 1;
	fs->fs_offs[fs->fs_n] = (uint32_t)off;
	fs->fs_ret[fs->fs_n++] = 0;
	return 0;
}

/*
 * Does a pointer-sized window over the bytes at off point into the
 * function?  Then those bytes may be a jump table's, as DTrace's amd64 fbt
 * fears for every ret it patches.
 */
static bool
fbt_in_table(const uint8_t *text, size_t size, uintptr_t addr, size_t off)
{
	for (size_t j = 0; j < sizeof(uintptr_t) && j <= off; j++) {
		uintptr_t p;

		if (off - j + sizeof(p) > size)
			continue;
		memcpy(&p, text + off - j, sizeof(p));
		if (p >= addr && p - addr < size)
			return true;
	}
	return false;
}

/*
 * The return sites: those the ISA reports (returns, tail calls out of the
 * function), and every return instruction besides.  The ISA reports, as
 * DTrace's pid provider does, only a return right after the frame is torn
 * down in a function that has an indirect jump (a jump table might be
 * inline, in user code); kernels' compilers keep their tables in rodata,
 * and DTrace's fbt patches every ret such a function has unless the bytes
 * around it, read as a pointer, point into the function.  We do the same.
 */
static size_t
fbt_returns(const uint8_t *text, size_t size, uintptr_t addr, uintptr_t **retsp)
{
	fbt_sites_t fs;
	uintptr_t *rets = NULL;
	size_t i, n = 0;
	isa_insn_t in;

	memset(&fs, 0, sizeof(fs));
	fs.fs_cap = size;
	fs.fs_offs = dtrace_port_zalloc(size * sizeof(fs.fs_offs[0]));
	fs.fs_ret = dtrace_port_zalloc(size);
	if (fs.fs_offs == NULL || fs.fs_ret == NULL ||
	    isa_func_sites(text, size, addr, fbt_site, &fs) != 0)
		goto out;
	for (i = 0; i < fs.fs_n; i++) {
		size_t off = fs.fs_offs[i];

		if (!fs.fs_ret[i] &&
		    isa_insn_decode(text + off, size - off, addr + off, &in) == 0 &&
		    (in.ii_flags & ISA_INSN_RET) && !fbt_in_table(text, size, addr, off))
			fs.fs_ret[i] = 1;
		n += fs.fs_ret[i];
	}
	if (n > 0 && (rets = dtrace_port_zalloc(n * sizeof(rets[0]))) != NULL) {
		n = 0;
		for (i = 0; i < fs.fs_n; i++)
			if (fs.fs_ret[i])
				rets[n++] = addr + fs.fs_offs[i];
	} else {
		n = 0;
	}
out:
	if (fs.fs_offs != NULL)
		dtrace_port_free(fs.fs_offs, size * sizeof(fs.fs_offs[0]));
	if (fs.fs_ret != NULL)
		dtrace_port_free(fs.fs_ret, size);
	*retsp = rets;
	return n;
}

static int
fbt_function(const char *name, uintptr_t addr, size_t size, void *arg)
{
	fbt_walk_t *w = arg;
	const dtrace_port_module_t *mod = w->fw_mod;
	inst_func_req_t rq;
	uintptr_t *rets;
	uint8_t *text;
	size_t nret;

	if (!dtrace_match_glob(name, w->fw_funcpat) || instprov_excluded(name))
		return 0;
	if (size == 0 || addr < mod->dpm_text || addr - mod->dpm_text >= mod->dpm_textsize ||
	    size > mod->dpm_textsize - (addr - mod->dpm_text))
		return 0;
	if (instprov_func_text(addr, size, &text) != 0)
		return 0; /* no frame set-up, or undecodable */

	memset(&rq, 0, sizeof(rq));
	rq.ifr_prov = fbt_id;
	rq.ifr_as = NULL;
	rq.ifr_key = 0;
	rq.ifr_mod = mod->dpm_name;
	rq.ifr_func = name;
	rq.ifr_addr = addr;
	rq.ifr_size = size;
	rq.ifr_lock = fbt_ifr_lock;
	rq.ifr_made = instprov_probe_made;
	rq.ifr_made_arg = w->fw_rec;
	/* A probe whose every site the engine refuses (an instruction the
	 * kernel cannot step) is simply not made. */
	if (w->fw_entry)
		(void)inst_func_probe(&rq, "entry", INST_ENTRY, &addr, 1);
	if (w->fw_return && (nret = fbt_returns(text, size, addr, &rets)) > 0) {
		(void)inst_func_probe(&rq, "return", INST_RETURN, rets, nret);
		dtrace_port_free(rets, nret * sizeof(rets[0]));
	}
	dtrace_port_free(text, size);
	return 0;
}

static int
fbt_module(const dtrace_port_module_t *mod, void *arg)
{
	fbt_walk_t *w = arg;

	if (!dtrace_match_glob(mod->dpm_name, w->fw_modpat))
		return 0;
	if (!instprov_module_ok(mod))
		return 0;
	/* A consumer's open asks for every probe (no description): with pins
	 * that would keep every module loaded as long as the probes last, so
	 * it gets only those of modules already pinned; a description makes
	 * the probes it names. */
	if (w->fw_desc == NULL && instprov_module_unpinned(mod))
		return 0;
	if (instprov_module_begin(mod, &w->fw_rec) != 0)
		return 0;
	w->fw_mod = mod;
	(void)dtrace_port_symbol_iter(mod, fbt_function, w);
	instprov_module_end(w->fw_rec);
	return 0;
}

static void
fbt_provide(void *parg, const dtrace_probedesc_t *desc)
{
	const char *name = desc != NULL && desc->dtpd_name[0] != '\0' ? desc->dtpd_name : "*";
	fbt_walk_t w;

	(void)parg;
	memset(&w, 0, sizeof(w));
	w.fw_desc = desc;
	w.fw_modpat = desc != NULL && desc->dtpd_mod[0] != '\0' ? desc->dtpd_mod : "*";
	w.fw_funcpat = desc != NULL && desc->dtpd_func[0] != '\0' ? desc->dtpd_func : "*";
	w.fw_entry = dtrace_match_glob("entry", name);
	w.fw_return = dtrace_match_glob("return", name);
	if (!w.fw_entry && !w.fw_return)
		return;
	(void)dtrace_port_module_iter(NULL, fbt_module, &w);
}

static int
fbt_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	return instprov_probe_enable(parg_probe);
}

static void
fbt_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	instprov_probe_disable(parg_probe);
}

static void
fbt_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	instprov_probe_destroy(parg_probe);
}

static const dtrace_pops_t fbt_pops = {
    .dtps_provide = fbt_provide,
    .dtps_enable = fbt_enable,
    .dtps_disable = fbt_disable,
    .dtps_destroy = fbt_destroy,
};

/* DTrace's stability for fbt. */
static const dtrace_pattr_t fbt_attr = {
    .dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    .dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
    .dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

int
instprov_fbt_register(void)
{
	return dtrace_register("fbt", &fbt_attr, DTRACE_PRIV_KERNEL, &fbt_pops, NULL, &fbt_id);
}

int
instprov_fbt_unregister(void)
{
	int err = dtrace_unregister(fbt_id);

	if (err == 0)
		fbt_id = 0;
	return err;
}

dtrace_provider_id_t
instprov_fbt_id(void)
{
	return fbt_id;
}
