/*
 * kernel/prov_kinst.c: the kinst provider (a probe on any instruction of a
 * kernel function), on the instruction-probe engine (instprov.h).
 *
 * We follow FreeBSD's kinst: probes are named kinst:<module>:<function>:
 * <offset> with the offset of the instruction in the function in DECIMAL,
 * and they are made only when a description asks for them, for one function
 * named exactly (kinst::vm_fault:12 makes one probe; kinst::vm_fault: or a
 * glob name makes one per instruction boundary whose decimal offset it
 * matches); listing every probe lists none.  FreeBSD's libdtrace asks the
 * kinst device to make them; here the core hands the description to
 * dtps_provide.  Differences from FreeBSD's kinst: the module is dpm_name
 * (FreeBSD gives the linker file name, "zfs.ko" for a module, "kernel"
 * alike); the arguments are the argument registers at the instruction, as
 * DTrace's pid offset probes give them (FreeBSD's kinst passes zeros); an
 * instruction the ISA cannot step makes no probe rather than an error; and
 * the function rule is fbt's (instprov_isa_frame), where FreeBSD's amd64
 * kinst wants push %rbp first.
 */
#include "instprov.h"

/* Freestanding: the memory functions every kernel provides. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

static dtrace_provider_id_t kinst_id;

typedef struct kinst_walk {
	const char *kw_func, *kw_modpat, *kw_namepat;
	bool kw_one; /* a single offset */
	uint64_t kw_off;
	const dtrace_port_module_t *kw_mod;
	instprov_mod_t *kw_rec;
	uint32_t *kw_offs; /* instruction boundaries */
	size_t kw_n, kw_cap;
} kinst_walk_t;

static bool
kinst_is_glob(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '*' || *s == '?' || *s == '[' || *s == '\\')
			return true;
	return false;
}

static bool
kinst_parse_dec(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

static void
kinst_dec_name(uint64_t v, char *buf)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*buf++ = tmp[--n];
	*buf = '\0';
}

static int
kinst_boundary(size_t off, int kind, void *arg)
{
	kinst_walk_t *w = arg;

	if (kind != ISA_SITE_INSN)
		return 0;
	if (w->kw_n == w->kw_cap)
		return 1;
	w->kw_offs[w->kw_n++] = (uint32_t)off;
	return 0;
}

/* One probe at func + off, unless it exists or the engine refuses the
 * instruction. */
static void
kinst_make(const kinst_walk_t *w, uintptr_t func, uint32_t off)
{
	const char *mod = w->kw_mod->dpm_name;
	inst_fprobe_t *fp;
	inst_site_t *site;
	dtrace_id_t id;
	char name[24];
	int err;

	kinst_dec_name(off, name);
	if (dtrace_probe_lookup(kinst_id, mod, w->kw_func, name) != 0)
		return;
	instprov_lock(true);
	err = inst_site_get(NULL, 0, func + off, &site);
	instprov_lock(false);
	if (err != 0)
		return;
	if ((fp = dtrace_port_zalloc(sizeof(*fp))) == NULL)
		return;
	if ((fp->ifp_sites = dtrace_port_zalloc(sizeof(fp->ifp_sites[0]))) == NULL) {
		dtrace_port_free(fp, sizeof(*fp));
		return;
	}
	fp->ifp_kind = INST_OFFSET;
	fp->ifp_nsites = 1;
	fp->ifp_sites[0] = site;
	if ((id = dtrace_probe_create(kinst_id, mod, w->kw_func, name, 0, fp)) == 0) {
		dtrace_port_free(fp->ifp_sites, sizeof(fp->ifp_sites[0]));
		dtrace_port_free(fp, sizeof(*fp));
		return;
	}
	fp->ifp_id = id;
	instprov_lock(true);
	if ((err = inst_site_add_probe(site, id, INST_OFFSET, func)) == 0)
		instprov_probe_made(fp, w->kw_rec);
	instprov_lock(false);
	if (err != 0)
		(void)dtrace_probe_destroy(kinst_id, id); /* frees fp */
}

static int
kinst_function(const char *name, uintptr_t addr, size_t size, void *arg)
{
	kinst_walk_t *w = arg;
	const dtrace_port_module_t *mod = w->kw_mod;
	uint8_t *text;
	char buf[24];
	size_t i;

	if (!dtrace_match_glob(name, w->kw_func) || instprov_excluded(name))
		return 0;
	if (size == 0 || addr < mod->dpm_text || addr - mod->dpm_text >= mod->dpm_textsize ||
	    size > mod->dpm_textsize - (addr - mod->dpm_text))
		return 0;
	if (w->kw_one && w->kw_off >= size)
		return 0;
	if (instprov_func_text(addr, size, &text) != 0)
		return 0;
	w->kw_cap = size;
	w->kw_n = 0;
	if ((w->kw_offs = dtrace_port_zalloc(size * sizeof(w->kw_offs[0]))) != NULL) {
		(void)isa_func_sites(text, size, addr, kinst_boundary, w);
		for (i = 0; i < w->kw_n; i++) {
			if (w->kw_one) {
				if (w->kw_offs[i] != w->kw_off)
					continue;
			} else {
				kinst_dec_name(w->kw_offs[i], buf);
				if (!dtrace_match_glob(buf, w->kw_namepat))
					continue;
			}
			kinst_make(w, addr, w->kw_offs[i]);
		}
		dtrace_port_free(w->kw_offs, size * sizeof(w->kw_offs[0]));
		w->kw_offs = NULL;
	}
	dtrace_port_free(text, size);
	return 0;
}

static int
kinst_module(const dtrace_port_module_t *mod, void *arg)
{
	kinst_walk_t *w = arg;

	if (!dtrace_match_glob(mod->dpm_name, w->kw_modpat) || !instprov_module_ok(mod))
		return 0;
	if (instprov_module_begin(mod, &w->kw_rec) != 0)
		return 0;
	w->kw_mod = mod;
	(void)dtrace_port_symbol_iter(mod, kinst_function, w);
	instprov_module_end(w->kw_rec);
	return 0;
}

static void
kinst_provide(void *parg, const dtrace_probedesc_t *desc)
{
	kinst_walk_t w;

	(void)parg;
	/* Only on demand, one function named exactly. */
	if (desc == NULL || desc->dtpd_func[0] == '\0' || kinst_is_glob(desc->dtpd_func))
		return;
	memset(&w, 0, sizeof(w));
	w.kw_func = desc->dtpd_func;
	w.kw_modpat = desc->dtpd_mod[0] != '\0' ? desc->dtpd_mod : "*";
	w.kw_namepat = desc->dtpd_name[0] != '\0' ? desc->dtpd_name : "*";
	if (!kinst_is_glob(w.kw_namepat)) {
		if (!kinst_parse_dec(w.kw_namepat, &w.kw_off))
			return;
		w.kw_one = true;
	}
	(void)dtrace_port_module_iter(NULL, kinst_module, &w);
}

static int
kinst_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	return instprov_probe_enable(parg_probe);
}

static void
kinst_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	instprov_probe_disable(parg_probe);
}

static void
kinst_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	instprov_probe_destroy(parg_probe);
}

static const dtrace_pops_t kinst_pops = {
    .dtps_provide = kinst_provide,
    .dtps_enable = kinst_enable,
    .dtps_disable = kinst_disable,
    .dtps_destroy = kinst_destroy,
};

/* FreeBSD's stability for kinst (that of fbt). */
static const dtrace_pattr_t kinst_attr = {
    .dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    .dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
    .dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    .dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

int
instprov_kinst_register(void)
{
	return dtrace_register("kinst", &kinst_attr, DTRACE_PRIV_KERNEL, &kinst_pops, NULL,
	                       &kinst_id);
}

int
instprov_kinst_unregister(void)
{
	int err = dtrace_unregister(kinst_id);

	if (err == 0)
		kinst_id = 0;
	return err;
}

dtrace_provider_id_t
instprov_kinst_id(void)
{
	return kinst_id;
}
