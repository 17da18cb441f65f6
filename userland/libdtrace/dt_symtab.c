/*
 * dt_symtab.c: addresses to "object`symbol+offset".
 *
 * Stack frames, %a, sym(), usym() and friends name addresses in a traced
 * address space.  An address space is a process (pid 0 means this one,
 * where the Linux host runs the core and its in-process probes).  Its
 * objects come from /proc/<pid>/maps; each object's symbols come from its
 * ELF file (.symtab, else its separate debug file by build ID, else
 * .dynsym) read with libelf, sorted once and then searched by address.  A miss rereads the maps, since objects come and go.
 */
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_elf.h"
#include "dt_impl.h"

typedef struct dt_sym {
	uint64_t ds_value; /* link-time address */
	uint64_t ds_size;
	char *ds_name;
} dt_sym_t;

typedef struct dt_obj {
	struct dt_obj *do_next;
	char *do_path;
	dt_sym_t *do_syms; /* sorted by value */
	size_t do_nsyms;
	int do_loaded;
} dt_obj_t;

typedef struct dt_map {
	uint64_t dm_start;
	uint64_t dm_end;
	uint64_t dm_bias; /* run-time address minus link-time address */
	dt_obj_t *dm_obj;
} dt_map_t;

typedef struct dt_space {
	struct dt_space *ds_next;
	int ds_pid;
	dt_map_t *ds_maps;
	size_t ds_nmaps;
} dt_space_t;

struct dt_symtab {
	dt_obj_t *st_objs;
	dt_space_t *st_spaces;
};

static int
dt_sym_cmp(const void *a, const void *b)
{
	const dt_sym_t *l = a, *r = b;

	if (l->ds_value != r->ds_value)
		return l->ds_value < r->ds_value ? -1 : 1;
	/* among aliases, prefer the one with a size, then by name */
	if ((l->ds_size == 0) != (r->ds_size == 0))
		return l->ds_size == 0 ? 1 : -1;
	return strcmp(l->ds_name, r->ds_name);
}

/* The GNU build ID of an object, as lower-case hex; 0 if it has none. */
static int
dt_elf_buildid(Elf *elf, char *hex, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	GElf_Nhdr nh;
	Elf_Data *data;
	size_t off = 0, noff, doff, i;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &shdr) == NULL || shdr.sh_type != SHT_NOTE ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (off = gelf_getnote(data, off, &nh, &noff, &doff)) != 0;) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + noff, "GNU", 4) != 0 ||
			    nh.n_descsz * 2 + 1 > len || nh.n_descsz < 2)
				continue;
			for (i = 0; i < nh.n_descsz; i++)
				(void)snprintf(hex + 2 * i, 3, "%02x",
				               ((unsigned char *)data->d_buf)[doff + i]);
			return 1;
		}
	}
	return 0;
}

/*
 * Add the functions and objects of one ELF file's symbol table (.symtab,
 * else .dynsym) to obj.  Returns 1 if the table was a .symtab; *idp gets
 * the file's build ID ("" if none).
 */
static int
dt_obj_load_file(dt_obj_t *obj, const char *path, char *idp, size_t idlen)
{
	Elf *elf;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr shdr, symshdr = {0};
	Elf_Data *data;
	size_t i, n, cap = obj->do_nsyms;
	int fd, full = 0;

	if (idp != NULL)
		idp[0] = '\0';
	if ((elf = dt_elf_open(path, &fd)) == NULL)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &shdr) == NULL)
			continue;
		if (shdr.sh_type == SHT_SYMTAB ||
		    (shdr.sh_type == SHT_DYNSYM && symscn == NULL)) {
			symscn = scn;
			symshdr = shdr;
		}
	}
	full = symscn != NULL && symshdr.sh_type == SHT_SYMTAB;
	if (!full && idp != NULL && !dt_elf_buildid(elf, idp, idlen))
		idp[0] = '\0';
	if (symscn != NULL && (data = elf_getdata(symscn, NULL)) != NULL &&
	    symshdr.sh_entsize != 0) {
		n = symshdr.sh_size / symshdr.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *name;
			int type;

			if (gelf_getsym(data, (int)i, &sym) == NULL)
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if ((type != STT_FUNC && type != STT_OBJECT) || sym.st_shndx == SHN_UNDEF ||
			    sym.st_value == 0)
				continue;
			name = elf_strptr(elf, symshdr.sh_link, sym.st_name);
			if (name == NULL || name[0] == '\0')
				continue;
			if (obj->do_nsyms == cap) {
				size_t ncap = cap != 0 ? cap * 2 : 256;
				dt_sym_t *nsyms = realloc(obj->do_syms, ncap * sizeof(dt_sym_t));

				if (nsyms == NULL)
					break;
				obj->do_syms = nsyms;
				cap = ncap;
			}
			obj->do_syms[obj->do_nsyms].ds_value = sym.st_value;
			obj->do_syms[obj->do_nsyms].ds_size = sym.st_size;
			obj->do_syms[obj->do_nsyms].ds_name = strdup(name);
			if (obj->do_syms[obj->do_nsyms].ds_name != NULL)
				obj->do_nsyms++;
		}
	}
	dt_elf_close(elf, fd);
	return full;
}

/*
 * An object's symbols.  A stripped object (Debian's libc.so.6 keeps only
 * .dynsym) is named from its separate debug file when one is installed
 * where the distribution puts them, by build ID
 * (/usr/lib/debug/.build-id/xx/yyyy.debug, libc6-dbg for libc), so static
 * functions such as __libc_start_call_main have names, as gdb finds them.
 */
static void
dt_obj_load(dt_obj_t *obj)
{
	char id[256], dbg[PATH_MAX];
	size_t i;

	obj->do_loaded = 1;
	if (dt_obj_load_file(obj, obj->do_path, id, sizeof(id)) || id[0] == '\0')
		goto sort;
	(void)snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	if (access(dbg, R_OK) != 0)
		goto sort;
	/* the debug file's table is a superset: use it alone */
	for (i = 0; i < obj->do_nsyms; i++)
		free(obj->do_syms[i].ds_name);
	obj->do_nsyms = 0;
	(void)dt_obj_load_file(obj, dbg, NULL, 0);
	if (obj->do_nsyms == 0)
		(void)dt_obj_load_file(obj, obj->do_path, NULL, 0);
sort:
	if (obj->do_nsyms != 0)
		qsort(obj->do_syms, obj->do_nsyms, sizeof(dt_sym_t), dt_sym_cmp);
}

static dt_obj_t *
dt_obj_get(dt_symtab_t *st, const char *path)
{
	dt_obj_t *obj;

	for (obj = st->st_objs; obj != NULL; obj = obj->do_next) {
		if (strcmp(obj->do_path, path) == 0)
			return obj;
	}
	if ((obj = calloc(1, sizeof(*obj))) == NULL)
		return NULL;
	if ((obj->do_path = strdup(path)) == NULL) {
		free(obj);
		return NULL;
	}
	obj->do_next = st->st_objs;
	st->st_objs = obj;
	return obj;
}

/* Link-time address of the first loadable segment, to turn maps into biases. */
static uint64_t
dt_obj_firstload(const char *path, int *isexec)
{
	uint64_t vaddr;
	bool exec;
	Elf *elf;
	int fd;

	*isexec = 0;
	if ((elf = dt_elf_open(path, &fd)) == NULL)
		return 0;
	vaddr = dt_elf_loadbase(elf, &exec);
	*isexec = exec;
	dt_elf_close(elf, fd);
	return vaddr;
}

static void
dt_space_free(dt_space_t *sp)
{
	free(sp->ds_maps);
	sp->ds_maps = NULL;
	sp->ds_nmaps = 0;
}

static void
dt_space_read(dt_symtab_t *st, dt_space_t *sp)
{
	char path[64], line[4096];
	size_t cap = 0;
	FILE *fp;

	dt_map_t *old = sp->ds_maps;
	size_t nold = sp->ds_nmaps;

	/* A process that has gone keeps the objects it was last seen with, so
	 * stacks recorded before it exited are still named. */
	(void)snprintf(path, sizeof(path), "/proc/%d/maps", sp->ds_pid);
	if ((fp = fopen(path, "r")) == NULL)
		return;
	sp->ds_maps = NULL;
	sp->ds_nmaps = 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end, off;
		char perms[8], file[4096];
		dt_map_t *m;
		int isexec;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms, &off,
		           file) < 4)
			continue;
		/* Text is the executable mappings; a program of another ISA
		 * under qemu-user has its text mapped read-only (the host never
		 * executes it), so read-only file mappings count too: they hold
		 * no code natively, and an address in one names nothing. */
		if (file[0] != '/' || (perms[2] != 'x' && (perms[0] != 'r' || perms[1] == 'w')))
			continue;
		if (sp->ds_nmaps == cap) {
			size_t ncap = cap != 0 ? cap * 2 : 32;
			dt_map_t *nm = realloc(sp->ds_maps, ncap * sizeof(dt_map_t));

			if (nm == NULL)
				break;
			sp->ds_maps = nm;
			cap = ncap;
		}
		m = &sp->ds_maps[sp->ds_nmaps];
		m->dm_start = start;
		m->dm_end = end;
		if ((m->dm_obj = dt_obj_get(st, file)) == NULL)
			continue;
		{
			uint64_t first = dt_obj_firstload(file, &isexec);

			/* an executable lives at its link address; anything else
			 * at (map start - file offset) for link address 0 */
			m->dm_bias = isexec ? 0 : start - off - first;
		}
		sp->ds_nmaps++;
	}
	(void)fclose(fp);
	if (sp->ds_nmaps == 0 && nold != 0) {
		/* a zombie's maps are empty: keep what it had */
		free(sp->ds_maps);
		sp->ds_maps = old;
		sp->ds_nmaps = nold;
	} else {
		free(old);
	}
}


static dt_space_t *
dt_space_get(dt_symtab_t *st, int pid)
{
	dt_space_t *sp;

	for (sp = st->st_spaces; sp != NULL; sp = sp->ds_next) {
		if (sp->ds_pid == pid)
			return sp;
	}
	if ((sp = calloc(1, sizeof(*sp))) == NULL)
		return NULL;
	sp->ds_pid = pid;
	sp->ds_next = st->st_spaces;
	st->st_spaces = sp;
	dt_space_read(st, sp);
	return sp;
}

/* Read a traced process's objects now, while it lives, so that what it
 * recorded can be named after it exits. */
void
dt_symtab_prime(dtrace_hdl_t *dtp, int pid)
{
	dt_space_t *sp;

	if (dtp->dt_symtab == NULL && (dtp->dt_symtab = calloc(1, sizeof(*dtp->dt_symtab))) == NULL)
		return;
	if ((sp = dt_space_get(dtp->dt_symtab, pid)) != NULL)
		dt_space_read(dtp->dt_symtab, sp);
}

static const dt_map_t *
dt_space_find(const dt_space_t *sp, uint64_t addr)
{
	size_t i;

	for (i = 0; i < sp->ds_nmaps; i++) {
		if (addr >= sp->ds_maps[i].dm_start && addr < sp->ds_maps[i].dm_end)
			return &sp->ds_maps[i];
	}
	return NULL;
}

static const dt_sym_t *
dt_obj_lookup(dt_obj_t *obj, uint64_t value)
{
	size_t lo = 0, hi;
	const dt_sym_t *best;

	if (!obj->do_loaded)
		dt_obj_load(obj);
	hi = obj->do_nsyms;
	if (hi == 0)
		return NULL;
	/* last symbol whose value is <= value */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->do_syms[mid].ds_value <= value)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	best = &obj->do_syms[lo - 1];
	/* walk back over equal values to the preferred alias */
	while (best > obj->do_syms && best[-1].ds_value == best->ds_value)
		best--;
	if (best->ds_size != 0 && value >= best->ds_value + best->ds_size)
		return NULL;
	return best;
}

static const char *
dt_basename(const char *path)
{
	const char *p = strrchr(path, '/');

	return p != NULL ? p + 1 : path;
}

int
dt_symtab_lookup(dtrace_hdl_t *dtp, int pid, uint64_t addr, dt_syminfo_t *sip)
{
	dt_symtab_t *st = dtp->dt_symtab;
	const dt_map_t *m;
	const dt_sym_t *sym;
	dt_space_t *sp;

	if (st == NULL) {
		if ((st = calloc(1, sizeof(*st))) == NULL)
			return -1;
		dtp->dt_symtab = st;
	}
	if (pid == 0)
		pid = (int)getpid();
	if ((sp = dt_space_get(st, pid)) == NULL)
		return -1;
	if ((m = dt_space_find(sp, addr)) == NULL) {
		dt_space_read(st, sp);
		if ((m = dt_space_find(sp, addr)) == NULL)
			return -1;
	}
	memset(sip, 0, sizeof(*sip));
	(void)snprintf(sip->dts_object, sizeof(sip->dts_object), "%s",
	               dt_basename(m->dm_obj->do_path));
	if ((sym = dt_obj_lookup(m->dm_obj, addr - m->dm_bias)) != NULL) {
		(void)snprintf(sip->dts_name, sizeof(sip->dts_name), "%s", sym->ds_name);
		sip->dts_value = sym->ds_value + m->dm_bias;
		sip->dts_hassym = 1;
	}
	return 0;
}

void
dt_symtab_destroy(dtrace_hdl_t *dtp)
{
	dt_symtab_t *st = dtp->dt_symtab;
	dt_space_t *sp, *nsp;
	dt_obj_t *obj, *nobj;
	size_t i;

	if (st == NULL)
		return;
	for (sp = st->st_spaces; sp != NULL; sp = nsp) {
		nsp = sp->ds_next;
		dt_space_free(sp);
		free(sp);
	}
	for (obj = st->st_objs; obj != NULL; obj = nobj) {
		nobj = obj->do_next;
		for (i = 0; i < obj->do_nsyms; i++)
			free(obj->do_syms[i].ds_name);
		free(obj->do_syms);
		free(obj->do_path);
		free(obj);
	}
	free(st);
	dtp->dt_symtab = NULL;
}

int
dtrace_addr2str(dtrace_hdl_t *dtp, uint64_t addr, char *str, int nbytes)
{
	dt_syminfo_t si;
	char c[1024];

	if (nbytes <= 0)
		return 0;
	if (dt_symtab_lookup(dtp, 0, addr, &si) == 0 && si.dts_hassym) {
		if (addr > si.dts_value)
			(void)snprintf(c, sizeof(c), "%s`%s+0x%llx", si.dts_object, si.dts_name,
			               (unsigned long long)(addr - si.dts_value));
		else
			(void)snprintf(c, sizeof(c), "%s`%s", si.dts_object, si.dts_name);
	} else {
		(void)snprintf(c, sizeof(c), "0x%llx", (unsigned long long)addr);
	}
	return snprintf(str, (size_t)nbytes, "%s", c);
}

int
dtrace_uaddr2str(dtrace_hdl_t *dtp, int pid, uint64_t addr, char *str, int nbytes)
{
	dt_syminfo_t si;
	char c[1024];

	if (nbytes <= 0)
		return 0;
	if (dt_symtab_lookup(dtp, pid, addr, &si) == 0) {
		if (si.dts_hassym && addr > si.dts_value)
			(void)snprintf(c, sizeof(c), "%s`%s+0x%llx", si.dts_object, si.dts_name,
			               (unsigned long long)(addr - si.dts_value));
		else if (si.dts_hassym)
			(void)snprintf(c, sizeof(c), "%s`%s", si.dts_object, si.dts_name);
		else
			(void)snprintf(c, sizeof(c), "%s`0x%llx", si.dts_object,
			               (unsigned long long)addr);
	} else {
		(void)snprintf(c, sizeof(c), "0x%llx", (unsigned long long)addr);
	}
	return snprintf(str, (size_t)nbytes, "%s", c);
}
