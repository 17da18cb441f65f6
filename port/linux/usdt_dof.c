/*
 * port/linux/usdt_dof.c: the DOF images `dtrace -G` left in an object,
 * read from a traced process.
 *
 * An object linked with -G's output has a `.SUNW_dof` section: one DOF
 * image per -G object linked in, each padded to 8 bytes, each describing
 * its providers (dof_provider_t), their probes (dof_probe_t: function,
 * name, native and translated argument types, the argument mapping) and
 * the probes' sites as offsets from their function, whose address the
 * linker filled in relative to the dofpr_addr field itself (a PC-relative
 * relocation: the image needs no dynamic relocation, so it reads right
 * when the dynamic linker reports the object, before relocating it).  It
 * is read from the process's memory and trusted no further than that
 * allows: every section, string, table entry and site is checked against
 * the image and the object's text before it is used.
 *
 * A site's arguments are where the call the -h header's macro made had
 * put them (the site was that call, now nops): the ISA's argument
 * registers, then the stack from the stack pointer up (no return address
 * was pushed).  Translated argument i is native argument map[i], sized and
 * signed as its C type says.  Consumer side, never probe context.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "dtrace_abi.h"
#include "usdt.h"

#define DOF_MAXSIZE ((size_t)16 << 20) /* larger is not a -G image */

typedef struct dof_view {
	const uint8_t *dv_img;
	size_t dv_len;
	const dof_hdr_t *dv_hdr;
	uintptr_t dv_addr; /* where the image is in the process */
} dof_view_t;

static const dof_sec_t *
dof_section(const dof_view_t *v, dof_secidx_t i, uint32_t type)
{
	const dof_sec_t *s;

	if (i >= v->dv_hdr->dofh_secnum)
		return NULL;
	s = (const dof_sec_t *)(v->dv_img + v->dv_hdr->dofh_secoff + (size_t)i * sizeof(dof_sec_t));
	if (s->dofs_type != type || s->dofs_offset > v->dv_len ||
	    s->dofs_size > v->dv_len - s->dofs_offset)
		return NULL;
	return s;
}

/* String `off` of a string table section, NUL-terminated inside it. */
static const char *
dof_string(const dof_view_t *v, const dof_sec_t *strtab, uint64_t off)
{
	const char *s = (const char *)v->dv_img + strtab->dofs_offset;

	if (off >= strtab->dofs_size || memchr(s + off, '\0', strtab->dofs_size - off) == NULL)
		return NULL;
	return s + off;
}

/* The next string after s in its table, or NULL past the end. */
static const char *
dof_next_string(const dof_view_t *v, const dof_sec_t *strtab, const char *s)
{
	uint64_t off = (uint64_t)(s - ((const char *)v->dv_img + strtab->dofs_offset));

	return dof_string(v, strtab, off + strlen(s) + 1);
}

/*
 * A C type's size and sign for an argument, as the call passed it: integers
 * by their names, pointers 8 unsigned, anything else 8 bytes as they are.
 */
static void
ctype_size(const char *t, uint8_t *size, uint8_t *sign)
{
	static const struct {
		const char *name;
		uint8_t size, sign;
	} ints[] = {
	    {"char", 1, 1},      {"signed char", 1, 1},  {"unsigned char", 1, 0},
	    {"int8_t", 1, 1},    {"uint8_t", 1, 0},      {"_Bool", 1, 0},
	    {"bool", 1, 0},      {"short", 2, 1},        {"unsigned short", 2, 0},
	    {"int16_t", 2, 1},   {"uint16_t", 2, 0},     {"int", 4, 1},
	    {"unsigned", 4, 0},  {"unsigned int", 4, 0}, {"int32_t", 4, 1},
	    {"uint32_t", 4, 0},  {"long", 8, 1},         {"unsigned long", 8, 0},
	    {"long long", 8, 1}, {"int64_t", 8, 1},      {"ssize_t", 8, 1},
	    {"intptr_t", 8, 1},  {"off_t", 8, 1},        {"pid_t", 4, 1},
	    {"uid_t", 4, 0},     {"gid_t", 4, 0},        {"uint64_t", 8, 0},
	};
	char buf[128];
	size_t n = 0;

	*size = 8;
	*sign = 0;
	if (strchr(t, '*') != NULL || strchr(t, '[') != NULL)
		return;
	/* drop qualifiers, squeeze blanks */
	for (const char *w = t; *w != '\0';) {
		size_t len;

		while (*w == ' ' || *w == '\t')
			w++;
		for (len = 0; w[len] != '\0' && w[len] != ' ' && w[len] != '\t'; len++)
			continue;
		if (len == 0)
			break;
		if (!((len == 5 && strncmp(w, "const", 5) == 0) ||
		      (len == 8 && strncmp(w, "volatile", 8) == 0) ||
		      (len == 6 && strncmp(w, "signed", 6) == 0 && w[len] != '\0'))) {
			if (n + len + 2 > sizeof(buf))
				return;
			if (n > 0)
				buf[n++] = ' ';
			memcpy(buf + n, w, len);
			n += len;
		}
		w += len;
	}
	buf[n] = '\0';
	if (strncmp(buf, "enum ", 5) == 0) {
		*size = 4;
		*sign = 1;
		return;
	}
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (strcmp(buf, ints[i].name) == 0) {
			*size = ints[i].size;
			*sign = ints[i].sign;
			return;
		}
}

/* Native argument j at a call site. */
static void
call_arg(unsigned j, const char *type, inst_arg_t *a)
{
	memset(a, 0, sizeof(*a));
	ctype_size(type != NULL ? type : "", &a->ia_size, &a->ia_signed);
	a->ia_base = a->ia_index = INST_ARG_NOREG;
	a->ia_scale = 1;
	if (j < isa_narg_regs) {
		a->ia_kind = INST_ARG_REG;
		a->ia_base = (uint8_t)isa_arg_regs[j];
		a->ia_regbytes = 8;
	} else {
		a->ia_kind = INST_ARG_MEM;
		a->ia_base = ISA_REG_SP;
		a->ia_disp = (int64_t)(j - isa_narg_regs) * 8;
	}
}

static dtrace_attribute_t
dof_attr(dof_attr_t a)
{
	dtrace_attribute_t r;

	r.dtat_name = (uint8_t)DOF_ATTR_NAME(a);
	r.dtat_data = (uint8_t)DOF_ATTR_DATA(a);
	r.dtat_class = (uint8_t)DOF_ATTR_CLASS(a);
	if (r.dtat_name > DTRACE_STABILITY_MAX || r.dtat_data > DTRACE_STABILITY_MAX ||
	    r.dtat_class > DTRACE_CLASS_MAX)
		memset(&r, 0, sizeof(r));
	return r;
}

static void
dof_provider(const dof_view_t *v, const dof_sec_t *psec, uintptr_t lo, uintptr_t hi,
             linux_usdt_desc_fn_t fn, void *arg)
{
	const dof_provider_t *pv;
	const dof_sec_t *strtab, *probes, *prargs, *proffs, *prenoffs = NULL;
	const char *pname;
	dtrace_pattr_t attr;
	size_t nprobes;

	if (psec->dofs_size < sizeof(dof_provider_t) - sizeof(dof_secidx_t))
		return;
	pv = (const dof_provider_t *)(v->dv_img + psec->dofs_offset);
	if ((strtab = dof_section(v, pv->dofpv_strtab, DOF_SECT_STRTAB)) == NULL ||
	    (probes = dof_section(v, pv->dofpv_probes, DOF_SECT_PROBES)) == NULL ||
	    (prargs = dof_section(v, pv->dofpv_prargs, DOF_SECT_PRARGS)) == NULL ||
	    (proffs = dof_section(v, pv->dofpv_proffs, DOF_SECT_PROFFS)) == NULL ||
	    (pname = dof_string(v, strtab, pv->dofpv_name)) == NULL)
		return;
	if (psec->dofs_size >= sizeof(dof_provider_t) && pv->dofpv_prenoffs != DOF_SECIDX_NONE)
		prenoffs = dof_section(v, pv->dofpv_prenoffs, DOF_SECT_PRENOFFS);
	attr.dtpa_provider = dof_attr(pv->dofpv_provattr);
	attr.dtpa_mod = dof_attr(pv->dofpv_modattr);
	attr.dtpa_func = dof_attr(pv->dofpv_funcattr);
	attr.dtpa_name = dof_attr(pv->dofpv_nameattr);
	attr.dtpa_args = dof_attr(pv->dofpv_argsattr);
	nprobes = probes->dofs_size / sizeof(dof_probe_t);
	for (size_t i = 0; i < nprobes; i++) {
		const dof_probe_t *p = (const dof_probe_t *)(v->dv_img + probes->dofs_offset) + i;
		const char *func = dof_string(v, strtab, p->dofpr_func);
		const char *name = dof_string(v, strtab, p->dofpr_name);
		const char *native[256], *s;
		uintptr_t field =
		    v->dv_addr + (uintptr_t)((const uint8_t *)&p->dofpr_addr - v->dv_img);
		linux_usdt_desc_t d;
		unsigned nargc = p->dofpr_nargc, xargc = p->dofpr_xargc, k;

		if (func == NULL || name == NULL || (probes->dofs_offset % 8) != 0)
			continue;
		memset(&d, 0, sizeof(d));
		d.ud_prov = pname;
		d.ud_func = func;
		d.ud_name = name;
		d.ud_attr = &attr;
		s = nargc > 0 ? dof_string(v, strtab, p->dofpr_nargv) : NULL;
		for (k = 0; k < nargc && s != NULL; k++, s = dof_next_string(v, strtab, s))
			native[k] = s;
		if (k < nargc)
			continue;
		s = xargc > 0 ? dof_string(v, strtab, p->dofpr_xargv) : NULL;
		if (xargc > INST_ARGS_MAX || (uint64_t)p->dofpr_argidx + xargc > prargs->dofs_size)
			continue;
		for (k = 0; k < xargc && s != NULL; k++, s = dof_next_string(v, strtab, s)) {
			uint8_t m = v->dv_img[prargs->dofs_offset + p->dofpr_argidx + k];

			if (m >= nargc || m >= INST_ARGS_MAX)
				break;
			d.ud_map[k] = m;
			d.ud_native[m] = native[m];
			d.ud_xlate[k] = strcmp(s, native[m]) != 0 ? s : NULL;
			call_arg(m, native[m], &d.ud_args.ia_arg[k]);
		}
		if (k < xargc)
			continue;
		d.ud_nxargs = (int)xargc;
		d.ud_args.ia_nargs = xargc;
		/* the sites: probe offsets, then is-enabled offsets */
		for (int pass = 0; pass < 2; pass++) {
			const dof_sec_t *offs = pass == 0 ? proffs : prenoffs;
			uint64_t first = pass == 0 ? p->dofpr_offidx : p->dofpr_enoffidx;
			uint64_t n = pass == 0 ? p->dofpr_noffs : p->dofpr_nenoffs;

			if (offs == NULL || n == 0 ||
			    (first + n) * sizeof(uint32_t) > offs->dofs_size)
				continue;
			for (uint64_t o = 0; o < n; o++) {
				uint32_t off;

				memcpy(&off, v->dv_img + offs->dofs_offset + (first + o) * 4, 4);
				d.ud_addr = (uintptr_t)(field + p->dofpr_addr + off);
				d.ud_isenabled = pass == 1;
				if (d.ud_addr < lo || d.ud_addr >= hi)
					continue; /* not in the object's text */
				fn(&d, arg);
			}
		}
	}
}

int
linux_usdt_dof_read(linux_proc_t *p, uintptr_t addr, size_t size, uintptr_t lo, uintptr_t hi,
                    linux_usdt_desc_fn_t fn, void *arg)
{
	uint8_t *buf;
	size_t off = 0;
	int err;

	if (size == 0 || size > DOF_MAXSIZE)
		return DTRACE_EINVAL;
	if ((buf = malloc(size)) == NULL)
		return DTRACE_ENOMEM;
	if ((err = linux_proc_mem_read(p, addr, buf, size)) != 0) {
		free(buf);
		return err;
	}
	while (off + sizeof(dof_hdr_t) <= size) {
		const dof_hdr_t *h = (const dof_hdr_t *)(buf + off);
		dof_view_t v;

		if (memcmp(h->dofh_ident, DOF_MAG_STRING, DOF_MAG_STRLEN) != 0) {
			off += 8; /* padding between images */
			continue;
		}
		if (h->dofh_ident[DOF_ID_MODEL] != DOF_MODEL_LP64 ||
		    h->dofh_ident[DOF_ID_ENCODING] != DOF_ENCODE_LSB ||
		    h->dofh_loadsz < sizeof(dof_hdr_t) || h->dofh_loadsz > size - off ||
		    h->dofh_secsize != sizeof(dof_sec_t) || h->dofh_secoff > h->dofh_loadsz ||
		    (uint64_t)h->dofh_secnum * sizeof(dof_sec_t) >
		        h->dofh_loadsz - h->dofh_secoff ||
		    (h->dofh_secoff % 8) != 0)
			break;
		v.dv_img = buf + off;
		v.dv_len = (size_t)h->dofh_loadsz;
		v.dv_hdr = h;
		v.dv_addr = addr + off;
		for (uint32_t i = 0; i < h->dofh_secnum; i++) {
			const dof_sec_t *s = dof_section(&v, i, DOF_SECT_PROVIDER);

			if (s != NULL && (s->dofs_offset % 4) == 0)
				dof_provider(&v, s, lo, hi, fn, arg);
		}
		off += ((size_t)h->dofh_loadsz + 7) & ~(size_t)7;
	}
	free(buf);
	return 0;
}
