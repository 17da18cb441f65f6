/*
 * port/linux/modules.c: the process's loaded objects and their symbols
 * (port.h section 5).
 *
 * Modules come from dl_iterate_phdr: one per loaded object, named by the
 * file's base name (the main program by /proc/self/exe), its load bias,
 * and its executable PT_LOAD as text.  They are copied out first and the
 * callback runs after the loader's lock is dropped, so callbacks may do
 * anything (open files, walk symbols).  Symbols are read from the file
 * with libelf: .symtab when the file has one, else .dynsym; functions
 * (STT_FUNC, STT_GNU_IFUNC) that are defined in the object.  The vDSO has
 * no file: its symbols come from a copy of the image the kernel mapped
 * (getauxval(AT_SYSINFO_EHDR)), so a sample in clock_gettime is named.
 * Probe context: no.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "linux_impl.h"

typedef struct module_list {
	dtrace_port_module_t *ml_mods;
	size_t ml_n, ml_cap;
	char ml_exe[PATH_MAX];
	int ml_err;
} module_list_t;

static int
collect_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	module_list_t *ml = arg;
	dtrace_port_module_t *m, *grown;
	const char *path = info->dlpi_name, *slash;
	int i;

	(void)size;
	if (ml->ml_n == ml->ml_cap) {
		size_t cap = ml->ml_cap ? ml->ml_cap * 2 : 32;
		grown = realloc(ml->ml_mods, cap * sizeof(*grown));
		if (grown == NULL) {
			ml->ml_err = DTRACE_ENOMEM;
			return 1;
		}
		ml->ml_mods = grown;
		ml->ml_cap = cap;
	}
	m = &ml->ml_mods[ml->ml_n];
	memset(m, 0, sizeof(*m));
	if (path == NULL || path[0] == '\0') {
		/* The first object with no name is the main program. */
		if (ml->ml_n != 0 || ml->ml_exe[0] == '\0')
			return 0;
		path = ml->ml_exe;
	}
	m->dpm_base = (uintptr_t)info->dlpi_addr;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			m->dpm_text = m->dpm_base + ph->p_vaddr;
			m->dpm_textsize = ph->p_memsz;
			break;
		}
	}
	slash = strrchr(path, '/');
	m->dpm_name = strdup(slash != NULL ? slash + 1 : path);
	/* Names without a slash (linux-vdso.so.1) are not files. */
	m->dpm_path = slash != NULL ? strdup(path) : NULL;
	if (m->dpm_name == NULL || (slash != NULL && m->dpm_path == NULL)) {
		ml->ml_err = DTRACE_ENOMEM;
		return 1;
	}
	ml->ml_n++;
	return 0;
}

/*
 * Load bias of an object mapped with its file offset 0 at `start`: the
 * start minus the page of its first PT_LOAD's address (0 for a fixed
 * executable, whose first segment is mapped where it was linked).
 */
static uintptr_t
file_bias(const char *path, uintptr_t start)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	uintptr_t bias = start;
	size_t i, n;
	Elf *elf;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return start;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL && gelf_getehdr(elf, &eh) != NULL &&
	    elf_getphdrnum(elf, &n) == 0) {
		for (i = 0; i < n; i++) {
			if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
				continue;
			bias = start - (uintptr_t)(ph.p_vaddr & ~(ph.p_align > 1 ? ph.p_align - 1 : 0));
			if (eh.e_type == ET_EXEC)
				bias = 0;
			break;
		}
	}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return bias;
}

/*
 * The file offsets [*lo, *hi) of the first executable PT_LOAD of the ELF
 * file at path; false if it has none or is no ELF file.
 */
static bool
file_text_range(const char *path, unsigned long *lo, unsigned long *hi)
{
	GElf_Phdr ph;
	size_t i, n;
	Elf *elf;
	bool found = false;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL && elf_getphdrnum(elf, &n) == 0)
		for (i = 0; i < n && !found; i++) {
			if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			*lo = (unsigned long)ph.p_offset;
			*hi = (unsigned long)(ph.p_offset + ph.p_filesz);
			found = true;
		}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return found;
}

/*
 * Another process's objects, from /proc/<pid>/maps: one module per file
 * with an executable mapping, named by the file's base name; its bias
 * from the mapping of the file's offset 0.  Bracketed names ([vdso],
 * [stack]) and anonymous memory are not modules.  A program of another
 * ISA under qemu-user has its text mapped readable but not executable
 * (the host never executes it): a readable mapping of the file's
 * executable PT_LOAD counts as text too.
 */
static int
proc_modules(linux_proc_t *p, module_list_t *ml)
{
	char path[64], line[PATH_MAX + 128], file[PATH_MAX], perms[8];
	unsigned long lo, hi, off;
	uintptr_t first = 0;
	unsigned long xlo = 0, xhi = 0;
	bool xknown = false;
	char cur[PATH_MAX] = "";
	dtrace_port_module_t *m, *grown;
	FILE *f;
	int pos;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->lp_pid);
	if ((f = fopen(path, "re")) == NULL)
		return DTRACE_ESRCH;
	while (fgets(line, sizeof(line), f) != NULL) {
		pos = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &lo, &hi, perms, &off, &pos) < 4 ||
		    pos == 0)
			continue;
		if (sscanf(line + pos, "%4095[^\n]", file) != 1 || file[0] != '/')
			continue;
		if (strcmp(file, cur) != 0) {
			snprintf(cur, sizeof(cur), "%s", file);
			first = off == 0 ? lo : 0;
			xknown = false;
		}
		if (perms[2] != 'x') {
			if (perms[0] != 'r')
				continue;
			if (!xknown) {
				xknown = true;
				if (!file_text_range(file, &xlo, &xhi))
					xlo = xhi = 0;
			}
			if (!(off < xhi && off + (hi - lo) > xlo))
				continue;
		}
		/* one module per file: its first executable mapping */
		if (ml->ml_n > 0 && ml->ml_mods[ml->ml_n - 1].dpm_path != NULL &&
		    strcmp(ml->ml_mods[ml->ml_n - 1].dpm_path, file) == 0)
			continue;
		if (ml->ml_n == ml->ml_cap) {
			size_t cap = ml->ml_cap ? ml->ml_cap * 2 : 32;

			if ((grown = realloc(ml->ml_mods, cap * sizeof(*grown))) == NULL) {
				ml->ml_err = DTRACE_ENOMEM;
				break;
			}
			ml->ml_mods = grown;
			ml->ml_cap = cap;
		}
		m = &ml->ml_mods[ml->ml_n];
		memset(m, 0, sizeof(*m));
		m->dpm_path = strdup(file);
		m->dpm_name = strdup(strrchr(file, '/') + 1);
		if (m->dpm_path == NULL || m->dpm_name == NULL) {
			free((void *)m->dpm_path);
			free((void *)m->dpm_name);
			ml->ml_err = DTRACE_ENOMEM;
			break;
		}
		m->dpm_base = file_bias(file, first != 0 ? first : lo - off);
		m->dpm_text = lo;
		m->dpm_textsize = hi - lo;
		m->dpm_port = p;
		ml->ml_n++;
	}
	fclose(f);
	return 0;
}

int
dtrace_port_module_iter(void *as, dtrace_port_module_fn_t cb, void *arg)
{
	module_list_t ml;
	ssize_t n;
	size_t i;
	int rv = 0;

	if (as != NULL) {
		memset(&ml, 0, sizeof(ml));
		if (elf_version(EV_CURRENT) == EV_NONE)
			return DTRACE_ENOTSUP;
		if ((rv = proc_modules(as, &ml)) == 0 && ml.ml_err == 0)
			for (i = 0; i < ml.ml_n && rv == 0; i++)
				rv = cb(&ml.ml_mods[i], arg);
		goto out;
	}
	memset(&ml, 0, sizeof(ml));
	n = readlink("/proc/self/exe", ml.ml_exe, sizeof(ml.ml_exe) - 1);
	ml.ml_exe[n > 0 ? n : 0] = '\0';
	dl_iterate_phdr(collect_one, &ml);
	if (ml.ml_err == 0)
		for (i = 0; i < ml.ml_n && rv == 0; i++)
			rv = cb(&ml.ml_mods[i], arg);
out:
	for (i = 0; i < ml.ml_n; i++) {
		free((void *)ml.ml_mods[i].dpm_name);
		free((void *)ml.ml_mods[i].dpm_path);
	}
	free(ml.ml_mods);
	return ml.ml_err != 0 ? ml.ml_err : rv;
}

/* Call cb for each defined function of one symbol table. */
static int
walk_symtab(Elf *elf, Elf_Scn *scn, const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb,
	    void *arg)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i, nsyms;
	const char *name;
	int rv;

	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0)
		return 0;
	if ((data = elf_getdata(scn, NULL)) == NULL)
		return 0;
	nsyms = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < nsyms; i++) {
		if (gelf_getsym(data, (int)i, &sym) == NULL)
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name == NULL || name[0] == '\0')
			continue;
		rv = cb(name, mod->dpm_base + (uintptr_t)sym.st_value, (size_t)sym.st_size, arg);
		if (rv != 0)
			return rv;
	}
	return 0;
}

/* Walk the symbols of an ELF descriptor: .symtab, else .dynsym. */
static int
walk_elf(Elf *elf, const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	Elf_Scn *scn, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh;

	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	if (symtab == NULL && dynsym == NULL)
		return 0;
	return walk_symtab(elf, symtab != NULL ? symtab : dynsym, mod, cb, arg);
}

/*
 * The vDSO: if mod's text lies in the image at AT_SYSINFO_EHDR, read the
 * image's symbols from a private copy (libelf may write to what it is
 * given; the image is read-only).  The image ends with its section
 * headers, which is how its size is known.
 */
static int
vdso_symbols(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	size_t size;
	char *copy;
	Elf *elf;
	int rv;

	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shoff == 0)
		return 0;
	size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (mod->dpm_text < (uintptr_t)eh || mod->dpm_text >= (uintptr_t)eh + size ||
	    size > ((size_t)1 << 20))
		return 0;
	if ((copy = malloc(size)) == NULL)
		return DTRACE_ENOMEM;
	memcpy(copy, eh, size);
	if ((elf = elf_memory(copy, size)) == NULL) {
		free(copy);
		return 0;
	}
	rv = walk_elf(elf, mod, cb, arg);
	elf_end(elf);
	free(copy);
	return rv;
}

int
dtrace_port_symbol_iter(const dtrace_port_module_t *mod, dtrace_port_symbol_fn_t cb, void *arg)
{
	Elf *elf;
	int fd, rv;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return DTRACE_ENOTSUP;
	if (mod->dpm_path == NULL)
		return vdso_symbols(mod, cb, arg);
	if ((fd = open(mod->dpm_path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL) {
		close(fd);
		return DTRACE_EINVAL;
	}
	rv = walk_elf(elf, mod, cb, arg);
	elf_end(elf);
	close(fd);
	return rv;
}
