/*
 * dt_link.c: dtrace -G, DTrace's own statically defined probes.
 *
 * A program instrumented with the header `dtrace -h` writes calls
 * __dtrace_PROV___PROBE(args) at its probe sites and
 * __dtraceenabled_PROV___PROBE() where it asks whether a probe is on (a
 * provider's or probe's `-` is `__` there).  dtrace -G takes the provider
 * definitions and the program's relocatable objects and, as DTrace does:
 *   - checks every such call against the definitions (an undeclared probe
 *     is an error, as is an object with none to link and no site at all);
 *   - rewrites each call in the object, in place: a probe call becomes
 *     nops (a tail call, `ret` and nops), an is-enabled call `xor %rax,%rax`
 *     and nops, so the program runs them at no cost until traced; the
 *     relocation that pointed the call at the undefined function is made
 *     R_X86_64_NONE and the function's symbol weak;
 *   - writes a new object holding a DOF image that describes each
 *     provider (its stability, from the definitions and #pragma D
 *     attributes), each probe (native and translated argument types, the
 *     argument mapping) and each site (an offset from its function, whose
 *     address, relative to the probe's dofpr_addr itself, an ELF relocation
 *     fills in when the program is linked, against a hidden global alias
 *     of the function added to its object).
 * Linked into a program or library, the image lands in a `.SUNW_dof`
 * section, which the host reads from the traced process (after the
 * dynamic linker has relocated it) when it sees the object loaded.
 *
 * Only x86_64 objects for now: the call and its replacements are that
 * ISA's instructions.  Never in probe context; files only.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_compile.h"
#include "dt_impl.h"

#define LK_PROBE_PREFIX "__dtrace_"
#define LK_ENABLED_PREFIX "__dtraceenabled_"
#define LK_DOF_SECTION ".SUNW_dof"
#ifndef SHF_GNU_RETAIN
#define SHF_GNU_RETAIN 0x200000 /* kept by --gc-sections */
#endif

/* One probe site found in an object. */
typedef struct lk_site {
	char *ls_prov;   /* provider, as declared */
	char *ls_probe;  /* probe, as declared (`-` for `__`) */
	char *ls_func;   /* the function it is in, as named in its object */
	char *ls_sym;    /* the symbol the DOF relocates against */
	uint32_t ls_off; /* from the function's start */
	int ls_isenabled;
} lk_site_t;

typedef struct lk_state {
	dtrace_hdl_t *lk_dtp;
	const dt_cprovider_t **lk_provs;
	size_t lk_nprovs;
	lk_site_t *lk_sites;
	size_t lk_nsites, lk_cap;
	unsigned lk_key; /* names of the aliases of static functions */
} lk_state_t;

static int
lk_error(lk_state_t *lk, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(lk->lk_dtp->dt_errmsg, sizeof(lk->lk_dtp->dt_errmsg), fmt, ap);
	va_end(ap);
	return dt_set_errno(lk->lk_dtp, EDT_COMPILER);
}

/* `__` back to `-`, as the header made `-` into `__`. */
static char *
lk_unmangle(const char *s, size_t len)
{
	char *out = malloc(len + 1), *q = out;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '_' && i + 1 < len && s[i + 1] == '_') {
			*q++ = '-';
			i++;
		} else {
			*q++ = s[i];
		}
	}
	*q = '\0';
	return out;
}

static const dt_cprobe_decl_t *
lk_declared(const lk_state_t *lk, const char *prov, const char *probe)
{
	for (size_t i = 0; i < lk->lk_nprovs; i++) {
		if (strcmp(lk->lk_provs[i]->name, prov) != 0)
			continue;
		for (size_t j = 0; j < lk->lk_provs[i]->nprobes; j++)
			if (strcmp(lk->lk_provs[i]->probes[j].name, probe) == 0)
				return &lk->lk_provs[i]->probes[j];
	}
	return NULL;
}

static bool
lk_provider_declared(const lk_state_t *lk, const char *prov)
{
	for (size_t i = 0; i < lk->lk_nprovs; i++)
		if (strcmp(lk->lk_provs[i]->name, prov) == 0)
			return true;
	return false;
}

static int
lk_add_site(lk_state_t *lk, const lk_site_t *s)
{
	if (lk->lk_nsites == lk->lk_cap) {
		size_t cap = lk->lk_cap ? lk->lk_cap * 2 : 16;
		lk_site_t *grown = realloc(lk->lk_sites, cap * sizeof(*grown));

		if (grown == NULL)
			return lk_error(lk, "failed to allocate memory");
		lk->lk_sites = grown;
		lk->lk_cap = cap;
	}
	lk->lk_sites[lk->lk_nsites++] = *s;
	return 0;
}

static void
lk_site_free(lk_site_t *s)
{
	free(s->ls_prov);
	free(s->ls_probe);
	free(s->ls_func);
	free(s->ls_sym);
}

/* ---- One object: find the sites, rewrite them ----------------------------- */

typedef struct lk_obj {
	const char *lo_path;
	Elf *lo_elf;
	Elf_Scn *lo_symscn;
	Elf_Data *lo_syms, *lo_strs;
	GElf_Shdr lo_symsh;
	size_t lo_nsyms;
	/* what we appended to .symtab and .strtab (freed after elf_end) */
	void *lo_newsyms, *lo_newstrs;
	/* the static functions given aliases: symbol index -> alias name */
	size_t *lo_alias_sym;
	char **lo_alias_name;
	size_t lo_nalias;
} lk_obj_t;

/* The function symbol of section `shndx` holding offset `off`. */
static int
lk_func_at(lk_obj_t *o, size_t shndx, uint64_t off, GElf_Sym *out)
{
	GElf_Sym s;

	for (size_t i = 1; i < o->lo_nsyms; i++) {
		if (gelf_getsym(o->lo_syms, (int)i, &s) == NULL ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx != shndx)
			continue;
		if (off >= s.st_value && off < s.st_value + s.st_size) {
			*out = s;
			return (int)i;
		}
	}
	return -1;
}

/* Append bytes to an Elf_Data buffer we own from now on. */
static int
lk_data_append(Elf_Data *d, void **owned, const void *bytes, size_t len, size_t *at)
{
	char *buf = malloc(d->d_size + len);

	if (buf == NULL)
		return -1;
	memcpy(buf, d->d_buf, d->d_size);
	memcpy(buf + d->d_size, bytes, len);
	free(*owned);
	*owned = buf;
	*at = d->d_size;
	d->d_buf = buf;
	d->d_size += len;
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return 0;
}

/*
 * The symbol the DOF's relocation names for a function: a hidden global
 * alias added to this object (once per function).  Hidden, so the link
 * resolves the DOF's PC-relative reference to it (R_X86_64_PC64) once and
 * for all: the image needs no dynamic relocation, and reads the same in
 * the file and in a process, even before the dynamic linker has run.
 */
static char *
lk_func_symbol(lk_state_t *lk, lk_obj_t *o, int symidx, const GElf_Sym *fs, const char *name)
{
	GElf_Sym alias;
	char buf[512];
	size_t at;

	for (size_t i = 0; i < o->lo_nalias; i++)
		if (o->lo_alias_sym[i] == (size_t)symidx)
			return strdup(o->lo_alias_name[i]);
	snprintf(buf, sizeof(buf), "$dtrace%u.%s", lk->lk_key, name);
	memset(&alias, 0, sizeof(alias));
	alias.st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC);
	alias.st_other = STV_HIDDEN;
	alias.st_shndx = fs->st_shndx;
	alias.st_value = fs->st_value;
	alias.st_size = fs->st_size;
	if (lk_data_append(o->lo_strs, &o->lo_newstrs, buf, strlen(buf) + 1, &at) != 0)
		return NULL;
	alias.st_name = (Elf64_Word)at;
	{
		Elf64_Sym raw;
		size_t symat;

		memset(&raw, 0, sizeof(raw));
		raw.st_name = alias.st_name;
		raw.st_info = alias.st_info;
		raw.st_other = alias.st_other;
		raw.st_shndx = alias.st_shndx;
		raw.st_value = alias.st_value;
		raw.st_size = alias.st_size;
		if (lk_data_append(o->lo_syms, &o->lo_newsyms, &raw, sizeof(raw), &symat) != 0)
			return NULL;
		o->lo_nsyms++;
	}
	{
		size_t *s = realloc(o->lo_alias_sym, (o->lo_nalias + 1) * sizeof(*s));
		char **n;

		if (s == NULL)
			return NULL;
		o->lo_alias_sym = s;
		if ((n = realloc(o->lo_alias_name, (o->lo_nalias + 1) * sizeof(*n))) == NULL)
			return NULL;
		o->lo_alias_name = n;
		if ((n[o->lo_nalias] = strdup(buf)) == NULL)
			return NULL;
		s[o->lo_nalias++] = (size_t)symidx;
	}
	return strdup(buf);
}

/* The probe call in `text` at the relocation's offset, rewritten. */
static int
lk_rewrite(lk_state_t *lk, lk_obj_t *o, uint8_t *text, size_t tsize, uint64_t roff, bool isen,
           const char *sym)
{
	static const uint8_t nops[5] = {0x90, 0x90, 0x90, 0x90, 0x90};
	static const uint8_t tail[5] = {0xc3, 0x90, 0x90, 0x90, 0x90};
	static const uint8_t isen_call[5] = {0x48, 0x31, 0xc0, 0x90, 0x90};
	static const uint8_t isen_tail[5] = {0x48, 0x31, 0xc0, 0xc3, 0x90};
	uint8_t *ip;

	if (roff < 1 || roff + 4 > tsize)
		return lk_error(lk, "%s: relocation for %s outside its section", o->lo_path, sym);
	ip = text + roff - 1;
	if (ip[0] == 0xe8)
		memcpy(ip, isen ? isen_call : nops, 5);
	else if (ip[0] == 0xe9)
		memcpy(ip, isen ? isen_tail : tail, 5);
	else
		return lk_error(lk, "%s: the reference to %s is not a call (opcode 0x%02x)",
		                o->lo_path, sym, ip[0]);
	return 0;
}

/* Every relocation section of executable text: its probe calls. */
static int
lk_object_sites(lk_state_t *lk, lk_obj_t *o, int *found)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(o->lo_elf, &shstrndx) != 0)
		return lk_error(lk, "%s: %s", o->lo_path, elf_errmsg(-1));
	while ((scn = elf_nextscn(o->lo_elf, scn)) != NULL) {
		GElf_Shdr sh, tsh;
		Elf_Scn *tscn;
		Elf_Data *rd, *td;
		size_t nrel;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    sh.sh_link != elf_ndxscn(o->lo_symscn))
			continue;
		if ((tscn = elf_getscn(o->lo_elf, sh.sh_info)) == NULL ||
		    gelf_getshdr(tscn, &tsh) == NULL || !(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		if ((rd = elf_getdata(scn, NULL)) == NULL || (td = elf_getdata(tscn, NULL)) == NULL)
			continue;
		nrel = sh.sh_entsize != 0 ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < nrel; i++) {
			GElf_Rela r;
			GElf_Sym s, fs;
			const char *name, *rest, *sep;
			bool isen;
			lk_site_t site;
			int fidx, err;

			if (gelf_getrela(rd, (int)i, &r) == NULL ||
			    gelf_getsym(o->lo_syms, (int)GELF_R_SYM(r.r_info), &s) == NULL)
				continue;
			name = elf_strptr(o->lo_elf, o->lo_symsh.sh_link, s.st_name);
			if (name == NULL || s.st_shndx != SHN_UNDEF)
				continue;
			if (strncmp(name, LK_ENABLED_PREFIX, strlen(LK_ENABLED_PREFIX)) == 0) {
				isen = true;
				rest = name + strlen(LK_ENABLED_PREFIX);
			} else if (strncmp(name, LK_PROBE_PREFIX, strlen(LK_PROBE_PREFIX)) == 0) {
				isen = false;
				rest = name + strlen(LK_PROBE_PREFIX);
			} else {
				continue;
			}
			if (GELF_R_TYPE(r.r_info) != R_X86_64_PC32 &&
			    GELF_R_TYPE(r.r_info) != R_X86_64_PLT32)
				return lk_error(lk, "%s: unexpected relocation type %u for %s",
				                o->lo_path, (unsigned)GELF_R_TYPE(r.r_info), name);
			memset(&site, 0, sizeof(site));
			if ((sep = strstr(rest, "___")) == NULL || sep == rest || sep[3] == '\0')
				return lk_error(lk, "%s: %s is not a probe site name", o->lo_path,
				                name);
			site.ls_prov = lk_unmangle(rest, (size_t)(sep - rest));
			site.ls_probe = lk_unmangle(sep + 3, strlen(sep + 3));
			site.ls_isenabled = isen;
			if (site.ls_prov == NULL || site.ls_probe == NULL) {
				lk_site_free(&site);
				return lk_error(lk, "failed to allocate memory");
			}
			if (!lk_provider_declared(lk, site.ls_prov)) {
				err = lk_error(lk, "%s: no provider %s is defined (%s)", o->lo_path,
				               site.ls_prov, name);
				lk_site_free(&site);
				return err;
			}
			if (lk_declared(lk, site.ls_prov, site.ls_probe) == NULL) {
				err =
				    lk_error(lk, "%s: probe %s:::%s is not defined by provider %s",
				             o->lo_path, site.ls_prov, site.ls_probe, site.ls_prov);
				lk_site_free(&site);
				return err;
			}
			if ((fidx = lk_func_at(o, sh.sh_info, r.r_offset - 1, &fs)) < 0) {
				err = lk_error(lk, "%s: the site of %s is in no function",
				               o->lo_path, name);
				lk_site_free(&site);
				return err;
			}
			site.ls_off = (uint32_t)(r.r_offset - 1 - fs.st_value);
			site.ls_func =
			    strdup(elf_strptr(o->lo_elf, o->lo_symsh.sh_link, fs.st_name));
			site.ls_sym = site.ls_func != NULL
			                  ? lk_func_symbol(lk, o, fidx, &fs, site.ls_func)
			                  : NULL;
			if (site.ls_func == NULL || site.ls_sym == NULL) {
				lk_site_free(&site);
				return lk_error(lk, "failed to allocate memory");
			}
			if ((err = lk_rewrite(lk, o, td->d_buf, td->d_size, r.r_offset, isen,
			                      name)) != 0) {
				lk_site_free(&site);
				return err;
			}
			elf_flagdata(td, ELF_C_SET, ELF_F_DIRTY);
			/* the linker must not patch the nops, nor want the function */
			r.r_info = GELF_R_INFO(GELF_R_SYM(r.r_info), R_X86_64_NONE);
			gelf_update_rela(rd, (int)i, &r);
			elf_flagdata(rd, ELF_C_SET, ELF_F_DIRTY);
			s.st_info = GELF_ST_INFO(STB_WEAK, GELF_ST_TYPE(s.st_info));
			gelf_update_sym(o->lo_syms, (int)GELF_R_SYM(r.r_info), &s);
			elf_flagdata(o->lo_syms, ELF_C_SET, ELF_F_DIRTY);
			if ((err = lk_add_site(lk, &site)) != 0) {
				lk_site_free(&site);
				return err;
			}
			(*found)++;
		}
	}
	return 0;
}

static int
lk_object(lk_state_t *lk, const char *path)
{
	lk_obj_t o;
	GElf_Ehdr eh;
	int fd, err = 0, found = 0;

	memset(&o, 0, sizeof(o));
	o.lo_path = path;
	if ((fd = open(path, O_RDWR)) < 0)
		return lk_error(lk, "failed to open %s: %s", path, strerror(errno));
	if ((o.lo_elf = elf_begin(fd, ELF_C_RDWR, NULL)) == NULL ||
	    elf_kind(o.lo_elf) != ELF_K_ELF || gelf_getehdr(o.lo_elf, &eh) == NULL) {
		err = lk_error(lk, "%s is not an ELF file", path);
		goto out;
	}
	if (eh.e_type != ET_REL) {
		err = lk_error(lk, "%s is not a relocatable object", path);
		goto out;
	}
	if (eh.e_machine != EM_X86_64 || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		err = lk_error(lk, "%s: only x86_64 objects can be linked yet", path);
		goto out;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(o.lo_elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &o.lo_symsh) != NULL && o.lo_symsh.sh_type == SHT_SYMTAB) {
			o.lo_symscn = scn;
			break;
		}
	}
	if (o.lo_symscn == NULL || (o.lo_syms = elf_getdata(o.lo_symscn, NULL)) == NULL ||
	    (o.lo_strs = elf_getdata(elf_getscn(o.lo_elf, o.lo_symsh.sh_link), NULL)) == NULL) {
		err = lk_error(lk, "%s has no symbol table", path);
		goto out;
	}
	o.lo_nsyms = o.lo_symsh.sh_entsize != 0 ? o.lo_symsh.sh_size / o.lo_symsh.sh_entsize : 0;
	if ((err = lk_object_sites(lk, &o, &found)) != 0)
		goto out;
	if (found > 0 && elf_update(o.lo_elf, ELF_C_WRITE) < 0)
		err = lk_error(lk, "failed to rewrite %s: %s", path, elf_errmsg(-1));
out:
	if (o.lo_elf != NULL)
		elf_end(o.lo_elf);
	close(fd);
	free(o.lo_newsyms);
	free(o.lo_newstrs);
	for (size_t i = 0; i < o.lo_nalias; i++)
		free(o.lo_alias_name[i]);
	free(o.lo_alias_name);
	free(o.lo_alias_sym);
	return err;
}

/* ---- The DOF --------------------------------------------------------------- */

typedef struct lk_buf {
	uint8_t *b_data;
	size_t b_len, b_cap;
} lk_buf_t;

static size_t
lk_put(lk_buf_t *b, const void *p, size_t len, size_t align)
{
	size_t at = (b->b_len + align - 1) & ~(align - 1);

	if (at + len > b->b_cap) {
		size_t cap = b->b_cap ? b->b_cap : 4096;
		uint8_t *grown;

		while (cap < at + len)
			cap *= 2;
		if ((grown = realloc(b->b_data, cap)) == NULL)
			return (size_t)-1;
		memset(grown + b->b_cap, 0, cap - b->b_cap);
		b->b_data = grown;
		b->b_cap = cap;
	}
	if (p != NULL)
		memcpy(b->b_data + at, p, len);
	b->b_len = at + len;
	return at;
}

/* A string table under construction: the offset of each string added. */
static uint32_t
lk_str(lk_buf_t *t, const char *s)
{
	return (uint32_t)lk_put(t, s, strlen(s) + 1, 1);
}

/* DTrace's default for a declared provider (every part Unstable/Common),
 * then the program's #pragma D attributes for it. */
static void
lk_attrs(dtrace_hdl_t *dtp, const char *prov, dof_attr_t out[5])
{
	dtrace_pattr_t pa;
	const dtrace_attribute_t *parts[5] = {&pa.dtpa_provider, &pa.dtpa_mod, &pa.dtpa_func,
	                                      &pa.dtpa_name, &pa.dtpa_args};
	dtrace_attribute_t def = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE,
	                          DTRACE_CLASS_COMMON};

	pa.dtpa_provider = pa.dtpa_mod = pa.dtpa_func = pa.dtpa_name = pa.dtpa_args = def;
	dt_program_pattr(dtp, prov, &pa);
	for (int i = 0; i < 5; i++)
		out[i] = DOF_ATTR(parts[i]->dtat_name, parts[i]->dtat_data, parts[i]->dtat_class);
}

typedef struct lk_reloc {
	uint64_t lr_off; /* in the DOF */
	const char *lr_sym;
} lk_reloc_t;

typedef struct lk_dof {
	lk_buf_t ld_img; /* sections' data, placed after the headers at the end */
	dof_sec_t *ld_secs;
	size_t ld_nsecs;
	lk_reloc_t *ld_relocs;
	size_t ld_nrelocs;
} lk_dof_t;

static dof_secidx_t
lk_sec(lk_dof_t *d, uint32_t type, uint32_t align, uint32_t entsize, const lk_buf_t *data)
{
	dof_sec_t *grown = realloc(d->ld_secs, (d->ld_nsecs + 1) * sizeof(*grown));
	size_t at;

	if (grown == NULL)
		return DOF_SECIDX_NONE;
	d->ld_secs = grown;
	if ((at = lk_put(&d->ld_img, data->b_data, data->b_len, align ? align : 1)) == (size_t)-1)
		return DOF_SECIDX_NONE;
	memset(&grown[d->ld_nsecs], 0, sizeof(dof_sec_t));
	grown[d->ld_nsecs].dofs_type = type;
	grown[d->ld_nsecs].dofs_align = align;
	grown[d->ld_nsecs].dofs_flags = 1; /* DOF_SECF_LOAD */
	grown[d->ld_nsecs].dofs_entsize = entsize;
	grown[d->ld_nsecs].dofs_offset = at; /* from the data's start; fixed below */
	grown[d->ld_nsecs].dofs_size = data->b_len;
	return (dof_secidx_t)d->ld_nsecs++;
}

static int
lk_strcmp(const void *a, const void *b)
{
	const lk_site_t *x = a, *y = b;
	int c;

	if ((c = strcmp(x->ls_prov, y->ls_prov)) != 0)
		return c;
	if ((c = strcmp(x->ls_probe, y->ls_probe)) != 0)
		return c;
	if ((c = strcmp(x->ls_sym, y->ls_sym)) != 0)
		return c;
	if (x->ls_isenabled != y->ls_isenabled)
		return x->ls_isenabled - y->ls_isenabled;
	return x->ls_off < y->ls_off ? -1 : x->ls_off > y->ls_off;
}

/* The sections of one provider, from its sites sites[0..n). */
static int
lk_dof_provider(lk_state_t *lk, lk_dof_t *d, const lk_site_t *sites, size_t n)
{
	lk_buf_t strs = {0}, probes = {0}, prargs = {0}, proffs = {0}, prenoffs = {0}, pv = {0};
	dof_secidx_t sstr, sprobes, sargs, soffs, senoffs;
	dof_provider_t prov;
	dof_attr_t attrs[5];
	size_t nprobes = 0, *addr_at = NULL;
	int err = 0;

	(void)lk_str(&strs, "");
	memset(&prov, 0, sizeof(prov));
	prov.dofpv_name = lk_str(&strs, sites[0].ls_prov);
	for (size_t i = 0; i < n;) {
		/* one dof_probe_t per probe and function */
		const dt_cprobe_decl_t *decl = lk_declared(lk, sites[i].ls_prov, sites[i].ls_probe);
		dof_probe_t p;
		size_t j;

		memset(&p, 0, sizeof(p));
		p.dofpr_func = lk_str(&strs, sites[i].ls_func);
		p.dofpr_name = lk_str(&strs, sites[i].ls_probe);
		p.dofpr_nargc = (uint8_t)decl->nargs;
		p.dofpr_xargc = (uint8_t)decl->nxargs;
		p.dofpr_nargv = (uint32_t)strs.b_len;
		for (int a = 0; a < decl->nargs; a++)
			(void)lk_str(&strs, decl->args[a]);
		if (decl->nargs == 0)
			p.dofpr_nargv = lk_str(&strs, "");
		p.dofpr_xargv = (uint32_t)strs.b_len;
		for (int a = 0; a < decl->nxargs; a++)
			(void)lk_str(&strs, decl->xargs[a]);
		if (decl->nxargs == 0)
			p.dofpr_xargv = lk_str(&strs, "");
		p.dofpr_argidx = (uint32_t)prargs.b_len;
		for (int a = 0; a < decl->nxargs; a++) {
			uint8_t m = decl->map != NULL ? decl->map[a] : (uint8_t)a;

			(void)lk_put(&prargs, &m, 1, 1);
		}
		p.dofpr_offidx = (uint32_t)(proffs.b_len / sizeof(uint32_t));
		p.dofpr_enoffidx = (uint32_t)(prenoffs.b_len / sizeof(uint32_t));
		for (j = i; j < n && strcmp(sites[j].ls_probe, sites[i].ls_probe) == 0 &&
		            strcmp(sites[j].ls_sym, sites[i].ls_sym) == 0;
		     j++) {
			if (sites[j].ls_isenabled) {
				(void)lk_put(&prenoffs, &sites[j].ls_off, sizeof(uint32_t), 4);
				p.dofpr_nenoffs++;
			} else {
				(void)lk_put(&proffs, &sites[j].ls_off, sizeof(uint32_t), 4);
				p.dofpr_noffs++;
			}
		}
		{
			size_t *grown = realloc(addr_at, (nprobes + 1) * sizeof(*grown));

			if (grown == NULL) {
				err = lk_error(lk, "failed to allocate memory");
				goto out;
			}
			addr_at = grown;
			addr_at[nprobes] = i;
		}
		(void)lk_put(&probes, &p, sizeof(p), 8);
		nprobes++;
		i = j;
	}
	sstr = lk_sec(d, DOF_SECT_STRTAB, 1, 0, &strs);
	sprobes = lk_sec(d, DOF_SECT_PROBES, 8, sizeof(dof_probe_t), &probes);
	sargs = lk_sec(d, DOF_SECT_PRARGS, 1, 1, &prargs);
	soffs = lk_sec(d, DOF_SECT_PROFFS, 4, sizeof(uint32_t), &proffs);
	senoffs = lk_sec(d, DOF_SECT_PRENOFFS, 4, sizeof(uint32_t), &prenoffs);
	lk_attrs(lk->lk_dtp, sites[0].ls_prov, attrs);
	prov.dofpv_strtab = sstr;
	prov.dofpv_probes = sprobes;
	prov.dofpv_prargs = sargs;
	prov.dofpv_proffs = soffs;
	prov.dofpv_prenoffs = senoffs;
	prov.dofpv_provattr = attrs[0];
	prov.dofpv_modattr = attrs[1];
	prov.dofpv_funcattr = attrs[2];
	prov.dofpv_nameattr = attrs[3];
	prov.dofpv_argsattr = attrs[4];
	(void)lk_put(&pv, &prov, sizeof(prov), 4);
	if (lk_sec(d, DOF_SECT_PROVIDER, 4, 0, &pv) == DOF_SECIDX_NONE || sstr == DOF_SECIDX_NONE ||
	    sprobes == DOF_SECIDX_NONE || sargs == DOF_SECIDX_NONE || soffs == DOF_SECIDX_NONE ||
	    senoffs == DOF_SECIDX_NONE) {
		err = lk_error(lk, "failed to allocate memory");
		goto out;
	}
	/* each probe's dofpr_addr is its function's address, by relocation */
	for (size_t k = 0; k < nprobes; k++) {
		lk_reloc_t *grown = realloc(d->ld_relocs, (d->ld_nrelocs + 1) * sizeof(*grown));

		if (grown == NULL) {
			err = lk_error(lk, "failed to allocate memory");
			goto out;
		}
		d->ld_relocs = grown;
		grown[d->ld_nrelocs].lr_off = d->ld_secs[sprobes].dofs_offset +
		                              k * sizeof(dof_probe_t) +
		                              offsetof(dof_probe_t, dofpr_addr);
		grown[d->ld_nrelocs].lr_sym = sites[addr_at[k]].ls_sym;
		d->ld_nrelocs++;
	}
out:
	free(addr_at);
	free(strs.b_data);
	free(probes.b_data);
	free(prargs.b_data);
	free(proffs.b_data);
	free(prenoffs.b_data);
	free(pv.b_data);
	return err;
}

/* The whole image: header, section headers, then the sections' data; the
 * relocation offsets move with the data.  Padded to 8 bytes, so images
 * linked together stay aligned. */
static int
lk_dof(lk_state_t *lk, lk_dof_t *d, uint8_t **imgp, size_t *lenp)
{
	size_t hdr = sizeof(dof_hdr_t), secs, total;
	dof_hdr_t h;
	uint8_t *img;

	qsort(lk->lk_sites, lk->lk_nsites, sizeof(lk_site_t), lk_strcmp);
	for (size_t i = 0; i < lk->lk_nsites;) {
		size_t j = i;
		int err;

		while (j < lk->lk_nsites &&
		       strcmp(lk->lk_sites[j].ls_prov, lk->lk_sites[i].ls_prov) == 0)
			j++;
		if ((err = lk_dof_provider(lk, d, &lk->lk_sites[i], j - i)) != 0)
			return err;
		i = j;
	}
	secs = d->ld_nsecs * sizeof(dof_sec_t);
	total = (hdr + secs + 7) & ~(size_t)7;
	total = (total + d->ld_img.b_len + 7) & ~(size_t)7;
	if ((img = calloc(1, total)) == NULL)
		return lk_error(lk, "failed to allocate memory");
	memset(&h, 0, sizeof(h));
	h.dofh_ident[DOF_ID_MAG0] = DOF_MAG_MAG0;
	h.dofh_ident[DOF_ID_MAG1] = DOF_MAG_MAG1;
	h.dofh_ident[DOF_ID_MAG2] = DOF_MAG_MAG2;
	h.dofh_ident[DOF_ID_MAG3] = DOF_MAG_MAG3;
	h.dofh_ident[DOF_ID_MODEL] = DOF_MODEL_LP64;
	h.dofh_ident[DOF_ID_ENCODING] = DOF_ENCODE_LSB;
	h.dofh_ident[DOF_ID_VERSION] = DOF_VERSION_2;
	h.dofh_ident[DOF_ID_DIFVERS] = DIF_VERSION;
	h.dofh_ident[DOF_ID_DIFIREG] = DIF_DIR_NREGS;
	h.dofh_ident[DOF_ID_DIFTREG] = DIF_DTR_NREGS;
	h.dofh_hdrsize = (uint32_t)hdr;
	h.dofh_secsize = sizeof(dof_sec_t);
	h.dofh_secnum = (uint32_t)d->ld_nsecs;
	h.dofh_secoff = hdr;
	h.dofh_loadsz = total;
	h.dofh_filesz = total;
	memcpy(img, &h, sizeof(h));
	{
		size_t base = (hdr + secs + 7) & ~(size_t)7;

		for (size_t i = 0; i < d->ld_nsecs; i++)
			d->ld_secs[i].dofs_offset += base;
		for (size_t i = 0; i < d->ld_nrelocs; i++)
			d->ld_relocs[i].lr_off += base;
		memcpy(img + hdr, d->ld_secs, secs);
		memcpy(img + base, d->ld_img.b_data, d->ld_img.b_len);
	}
	*imgp = img;
	*lenp = total;
	return 0;
}

/* ---- The output object ---------------------------------------------------- */

static Elf_Scn *
lk_newscn(Elf *elf, uint32_t name, uint32_t type, uint64_t flags, void *buf, size_t size,
          size_t align, size_t entsize, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *data;
	GElf_Shdr sh;

	if (scn == NULL || (data = elf_newdata(scn)) == NULL || gelf_getshdr(scn, &sh) == NULL)
		return NULL;
	data->d_buf = buf;
	data->d_size = size;
	data->d_align = align;
	data->d_type = dtype;
	data->d_version = EV_CURRENT;
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	gelf_update_shdr(scn, &sh);
	return scn;
}

static int
lk_write(lk_state_t *lk, const char *file, uint8_t *img, size_t len, const lk_dof_t *d)
{
	lk_buf_t shstr = {0}, str = {0};
	Elf64_Sym *syms = NULL;
	Elf64_Rela *rela = NULL;
	const char **names = NULL;
	size_t nnames = 0, nsyms;
	uint32_t n_dof, n_rela, n_symtab, n_strtab, n_shstrtab, n_stack;
	Elf_Scn *dof, *rel, *symtab, *strtab, *shs, *stack;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf *elf = NULL;
	int fd, err = 0;

	(void)lk_str(&shstr, "");
	n_dof = lk_str(&shstr, LK_DOF_SECTION);
	n_rela = lk_str(&shstr, ".rela" LK_DOF_SECTION);
	n_symtab = lk_str(&shstr, ".symtab");
	n_strtab = lk_str(&shstr, ".strtab");
	n_shstrtab = lk_str(&shstr, ".shstrtab");
	n_stack = lk_str(&shstr, ".note.GNU-stack");
	(void)lk_str(&str, "");
	/* symbols: null, the section, then each function named once */
	for (size_t i = 0; i < d->ld_nrelocs; i++) {
		size_t k;

		for (k = 0; k < nnames && strcmp(names[k], d->ld_relocs[i].lr_sym) != 0; k++)
			continue;
		if (k == nnames) {
			const char **grown = realloc(names, (nnames + 1) * sizeof(*grown));

			if (grown == NULL) {
				err = lk_error(lk, "failed to allocate memory");
				goto out;
			}
			names = grown;
			names[nnames++] = d->ld_relocs[i].lr_sym;
		}
	}
	nsyms = 2 + nnames;
	syms = calloc(nsyms, sizeof(*syms));
	rela = calloc(d->ld_nrelocs + 1, sizeof(*rela));
	if (syms == NULL || rela == NULL) {
		err = lk_error(lk, "failed to allocate memory");
		goto out;
	}
	syms[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
	syms[1].st_shndx = 1;
	for (size_t k = 0; k < nnames; k++) {
		syms[2 + k].st_name = lk_str(&str, names[k]);
		syms[2 + k].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		syms[2 + k].st_shndx = SHN_UNDEF;
	}
	for (size_t i = 0; i < d->ld_nrelocs; i++) {
		size_t k;

		for (k = 0; strcmp(names[k], d->ld_relocs[i].lr_sym) != 0; k++)
			continue;
		rela[i].r_offset = d->ld_relocs[i].lr_off;
		rela[i].r_info = ELF64_R_INFO(2 + k, R_X86_64_PC64);
		rela[i].r_addend = 0;
	}
	if ((fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0666)) < 0) {
		err = lk_error(lk, "failed to open %s: %s", file, strerror(errno));
		goto out;
	}
	if ((elf = elf_begin(fd, ELF_C_WRITE, NULL)) == NULL ||
	    gelf_newehdr(elf, ELFCLASS64) == 0 || gelf_getehdr(elf, &eh) == NULL) {
		err = lk_error(lk, "failed to create %s: %s", file, elf_errmsg(-1));
		goto closefd;
	}
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	gelf_update_ehdr(elf, &eh);
	dof = lk_newscn(elf, n_dof, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE | SHF_GNU_RETAIN, img, len,
	                8, 0, ELF_T_BYTE);
	rel = lk_newscn(elf, n_rela, SHT_RELA, SHF_INFO_LINK, rela,
	                d->ld_nrelocs * sizeof(Elf64_Rela), 8, sizeof(Elf64_Rela), ELF_T_RELA);
	symtab = lk_newscn(elf, n_symtab, SHT_SYMTAB, 0, syms, nsyms * sizeof(Elf64_Sym), 8,
	                   sizeof(Elf64_Sym), ELF_T_SYM);
	strtab = lk_newscn(elf, n_strtab, SHT_STRTAB, 0, str.b_data, str.b_len, 1, 0, ELF_T_BYTE);
	shs =
	    lk_newscn(elf, n_shstrtab, SHT_STRTAB, 0, shstr.b_data, shstr.b_len, 1, 0, ELF_T_BYTE);
	/* the object needs no executable stack */
	stack = lk_newscn(elf, n_stack, SHT_PROGBITS, 0, NULL, 0, 1, 0, ELF_T_BYTE);
	if (dof == NULL || rel == NULL || symtab == NULL || strtab == NULL || shs == NULL ||
	    stack == NULL) {
		err = lk_error(lk, "failed to create %s: %s", file, elf_errmsg(-1));
		goto closefd;
	}
	gelf_getshdr(rel, &sh);
	sh.sh_link = (uint32_t)elf_ndxscn(symtab);
	sh.sh_info = (uint32_t)elf_ndxscn(dof);
	gelf_update_shdr(rel, &sh);
	gelf_getshdr(symtab, &sh);
	sh.sh_link = (uint32_t)elf_ndxscn(strtab);
	sh.sh_info = 2; /* the first global */
	gelf_update_shdr(symtab, &sh);
	syms[1].st_shndx = (uint16_t)elf_ndxscn(dof);
	gelf_getehdr(elf, &eh);
	eh.e_shstrndx = (uint16_t)elf_ndxscn(shs);
	gelf_update_ehdr(elf, &eh);
	if (elf_update(elf, ELF_C_WRITE) < 0)
		err = lk_error(lk, "failed to write %s: %s", file, elf_errmsg(-1));
closefd:
	if (elf != NULL)
		elf_end(elf);
	if (close(fd) != 0 && err == 0)
		err = lk_error(lk, "failed to write %s: %s", file, strerror(errno));
out:
	free(names);
	free(syms);
	free(rela);
	free(str.b_data);
	free(shstr.b_data);
	return err;
}

int
dtrace_program_link(dtrace_hdl_t *dtp, const char *file, int objc, char *const objv[])
{
	lk_state_t lk;
	lk_dof_t d;
	dtrace_prog_t *pgp;
	uint8_t *img = NULL;
	size_t len = 0, n;
	int err = 0;

	memset(&lk, 0, sizeof(lk));
	memset(&d, 0, sizeof(d));
	lk.lk_dtp = dtp;
	lk.lk_key = (unsigned)getpid();
	if (elf_version(EV_CURRENT) == EV_NONE)
		return lk_error(&lk, "libelf is too old");
	/* the provider definitions, oldest program first */
	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next)
		lk.lk_nprovs += pgp->dp_cprog != NULL ? pgp->dp_cprog->nproviders : 0;
	if (lk.lk_nprovs == 0)
		return lk_error(&lk, "no providers are defined");
	if ((lk.lk_provs = calloc(lk.lk_nprovs, sizeof(*lk.lk_provs))) == NULL)
		return lk_error(&lk, "failed to allocate memory");
	n = lk.lk_nprovs;
	for (pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		const dt_cprog_t *cp = pgp->dp_cprog;

		for (size_t j = cp != NULL ? cp->nproviders : 0; j-- > 0;)
			lk.lk_provs[--n] = &cp->providers[j];
	}
	for (int i = 0; i < objc && err == 0; i++)
		err = lk_object(&lk, objv[i]);
	if (err == 0 && lk.lk_nsites == 0)
		err = lk_error(&lk, "no probe sites found for declared provider");
	if (err == 0)
		err = lk_dof(&lk, &d, &img, &len);
	if (err == 0)
		err = lk_write(&lk, file, img, len, &d);
	free(img);
	free(d.ld_img.b_data);
	free(d.ld_secs);
	free(d.ld_relocs);
	for (size_t i = 0; i < lk.lk_nsites; i++)
		lk_site_free(&lk.lk_sites[i]);
	free(lk.lk_sites);
	free(lk.lk_provs);
	return err == 0 ? 0 : -1;
}
