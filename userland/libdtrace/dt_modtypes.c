/*
 * dt_modtypes.c: the modules whose types and symbols D programs may name
 * (see dt_modtypes.h for the model and the lookup order).
 *
 * A compilation lists its modules once, from /proc/self/maps and, when the
 * program has a $target, /proc/<target>/maps: one module per distinct file
 * mapped, in address order, which puts the main program first.  The type
 * data of a file is opened once per process (CTF, else DWARF) and kept in
 * a list under one lock; everything built from it for a compilation lives
 * in that compilation's arena.  Lookups, hits and misses alike, are cached
 * per compilation because the lexer asks about every identifier.
 */
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dt_grammar.h"
#include "dt_elf.h"
#include "dt_modtypes.h"

/* One file's type data, opened once per process (again if the file is replaced). */
typedef struct dt_modobj {
	struct dt_modobj *next;
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	bool opened;
	const dt_typereader_t *reader; /* NULL: no type data */
	void *h;
} dt_modobj_t;

static pthread_mutex_t dt_modobj_lock = PTHREAD_MUTEX_INITIALIZER;
static dt_modobj_t *dt_modobjs;

#define DT_MEMO_BUCKETS 256

typedef struct dt_memo {
	uint64_t id;
	dt_type_t *type;
	struct dt_memo *next;
} dt_memo_t;

/* One module of one compilation. */
typedef struct dt_mod {
	const char *name; /* base name of the file */
	const char *path;
	int pid;           /* whose address space (0: the compiler's) */
	uint64_t start;    /* first mapping: address and file offset */
	uint64_t off;
	dt_modobj_t *obj;  /* NULL until first needed */
	dt_memo_t *memo[DT_MEMO_BUCKETS];
} dt_mod_t;

typedef struct dt_namecache {
	int kind;
	const char *name;
	dt_type_t *type; /* NULL: a cached miss */
	struct dt_namecache *next;
} dt_namecache_t;

struct dt_modtypes {
	dt_mod_t *mods;
	size_t nmods;
	/* names looked up so far, hits and misses: chains that grow with them (a few per bucket) */
	dt_namecache_t **cache;
	size_t cachesize, ncached;
};

struct dt_modimport {
	dt_pcb_t *pcb;
	dt_mod_t *mod;
};

static const dt_typereader_t *const dt_readers[] = {&dt_ctf_reader, &dt_dwarf_reader};

static uint32_t
dt_strhash(const char *s, int kind)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* ---- module lists ----------------------------------------------------------- */

static void
dt_mods_read(dt_pcb_t *pcb, struct dt_modtypes *mt, int pid, size_t *cap)
{
	char path[64], line[4352];
	FILE *fp;

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/maps");
	else
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if ((fp = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end, off;
		char perms[8], file[4096];
		size_t i, len;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms, &off,
			   file) < 5 || file[0] != '/')
			continue;
		len = strlen(file);
		if (len > 10 && strcmp(file + len - 10, " (deleted)") == 0)
			continue;
		for (i = 0; i < mt->nmods; i++)
			if (mt->mods[i].pid == pid && strcmp(mt->mods[i].path, file) == 0)
				break;
		if (i < mt->nmods)
			continue;
		if (mt->nmods == *cap) {
			size_t ncap = *cap ? *cap * 2 : 32;
			dt_mod_t *nm = dt_zalloc(pcb, ncap * sizeof(*nm));
			if (mt->nmods > 0)
				memcpy(nm, mt->mods, mt->nmods * sizeof(*nm));
			mt->mods = nm;
			*cap = ncap;
		}
		dt_mod_t *m = &mt->mods[mt->nmods++];
		m->path = dt_strdup(pcb, file);
		m->name = strrchr(m->path, '/') + 1;
		m->pid = pid;
		m->start = start;
		m->off = off;
	}
	(void)fclose(fp);
}

/*
 * Has the target left our program?  A -c target is held between fork()
 * and exec() while programs are compiled; its objects then are ours, not
 * the program it will run, and listing them again would only shadow
 * nothing and cost time.
 */
static bool
dt_target_execd(int pid)
{
	char path[64], self[4096], other[4096];
	ssize_t a, b;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	a = readlink("/proc/self/exe", self, sizeof(self) - 1);
	b = readlink(path, other, sizeof(other) - 1);
	return a <= 0 || b <= 0 || a != b || memcmp(self, other, (size_t)a) != 0;
}

static struct dt_modtypes *
dt_mods(dt_pcb_t *pcb)
{
	struct dt_modtypes *mt = pcb->modtypes;
	size_t cap = 0;

	if (mt != NULL)
		return mt;
	mt = pcb->modtypes = dt_zalloc(pcb, sizeof(*mt));
	dt_mods_read(pcb, mt, 0, &cap);
	if (pcb->opts != NULL && pcb->opts->macros.set && pcb->opts->macros.target > 0 &&
	    pcb->opts->macros.target != (int64_t)getpid() && dt_target_execd((int)pcb->opts->macros.target))
		dt_mods_read(pcb, mt, (int)pcb->opts->macros.target, &cap);
	return mt;
}

/* Open a module's type data on first use (called with the lock held). */
static dt_modobj_t *
dt_mod_obj(dt_mod_t *m)
{
	dt_modobj_t *o;

	if (m->obj != NULL)
		return m->obj;
	struct stat st;
	if (stat(m->path, &st) != 0)
		return NULL;
	for (o = dt_modobjs; o != NULL; o = o->next)
		if (strcmp(o->path, m->path) == 0 && o->dev == st.st_dev && o->ino == st.st_ino &&
		    o->mtime.tv_sec == st.st_mtim.tv_sec && o->mtime.tv_nsec == st.st_mtim.tv_nsec)
			break;
	if (o == NULL) {
		if ((o = calloc(1, sizeof(*o))) == NULL || (o->path = strdup(m->path)) == NULL) {
			free(o);
			return NULL;
		}
		o->dev = st.st_dev;
		o->ino = st.st_ino;
		o->mtime = st.st_mtim;
		o->next = dt_modobjs;
		dt_modobjs = o;
	}
	if (!o->opened) {
		o->opened = true;
		for (size_t i = 0; i < sizeof(dt_readers) / sizeof(dt_readers[0]); i++) {
			if ((o->h = dt_readers[i]->open(o->path)) != NULL) {
				o->reader = dt_readers[i];
				break;
			}
		}
	}
	m->obj = o;
	return o;
}

/*
 * Split "mod`name" into the module part (a copy in *modp, "" for a leading
 * backquote) and the name; *modp is NULL for an unscoped name.
 */
static const char *
dt_mod_split(dt_pcb_t *pcb, const char *s, const char **modp)
{
	const char *q = strrchr(s, '`');

	if (q == NULL) {
		*modp = NULL;
		return s;
	}
	/* mod``name (DTrace's mark for a user symbol) is mod`name: all our modules are the user's */
	*modp = dt_strndup(pcb, s, (size_t)(q > s && q[-1] == '`' ? q - s - 1 : q - s));
	return q + 1;
}

/* Does module m answer to the (possibly empty) scope `mod'? */
static bool
dt_mod_match(const struct dt_modtypes *mt, const dt_mod_t *m, const char *mod)
{
	if (mod == NULL)
		return true;
	if (mod[0] == '\0') /* `name: the compiler's main program */
		return m == &mt->mods[0];
	if (strcmp(mod, "a.out") == 0) { /* the target's main program, else ours */
		const dt_mod_t *main = &mt->mods[0];
		for (size_t i = 0; i < mt->nmods; i++) {
			if (mt->mods[i].pid != 0) {
				main = &mt->mods[i];
				break;
			}
		}
		return m == main;
	}
	return strcmp(m->name, mod) == 0;
}

/* ---- imports ---------------------------------------------------------------- */

dt_pcb_t *
dt_modimport_pcb(dt_modimport_t *imp)
{
	return imp->pcb;
}

void
dt_modimport_memo(dt_modimport_t *imp, uint64_t id, dt_type_t *t)
{
	dt_memo_t *e = dt_zalloc(imp->pcb, sizeof(*e));
	size_t b = (size_t)((id * 0x9e3779b97f4a7c15ull) >> 56) % DT_MEMO_BUCKETS;

	e->id = id;
	e->type = t;
	e->next = imp->mod->memo[b];
	imp->mod->memo[b] = e;
}

dt_type_t *
dt_modimport_type(dt_modimport_t *imp, uint64_t id)
{
	size_t b = (size_t)((id * 0x9e3779b97f4a7c15ull) >> 56) % DT_MEMO_BUCKETS;
	dt_modobj_t *o = imp->mod->obj;
	dt_type_t *t;

	for (dt_memo_t *e = imp->mod->memo[b]; e != NULL; e = e->next)
		if (e->id == id)
			return e->type;
	t = o->reader->build(imp, o->h, id);
	if (t == NULL)
		t = imp->pcb->t_int; /* a type the compiler cannot represent */
	/* derived and base types may be memoised only now; tagged ones already are */
	for (dt_memo_t *e = imp->mod->memo[b]; e != NULL; e = e->next)
		if (e->id == id)
			return e->type;
	dt_modimport_memo(imp, id, t);
	return t;
}

dt_type_t *
dt_modimport_tagdef(dt_modimport_t *imp, dt_tkind_t kind, const char *name)
{
	dt_modobj_t *o = imp->mod->obj;
	uint64_t id = o->reader->find(o->h, kind, name);

	if (id == 0)
		return NULL;
	dt_type_t *t = dt_modimport_type(imp, id);
	return t != NULL && t->kind != DT_TK_FWD ? t : NULL;
}

dt_type_t *
dt_modimport_new(dt_modimport_t *imp, dt_tkind_t kind, const char *name, uint64_t size)
{
	dt_type_t *t = dt_type_new(imp->pcb, kind, name, size);

	t->isuser = true;
	return t;
}

dt_type_t *
dt_modimport_int(dt_modimport_t *imp, const char *name, uint64_t size, bool issigned, bool ischar)
{
	dt_pcb_t *pcb = imp->pcb;

	/* Plain char is D's char even where the C ABI makes it unsigned
	 * (aarch64, riscv): only "unsigned char" is unsigned char. */
	if (ischar && size == 1)
		return issigned || (name != NULL && strcmp(name, "char") == 0) ? pcb->t_char
									   : pcb->t_uchar;
	if (size == 1 || size == 2 || size == 4 || size == 8)
		return dt_type_int(pcb, size, issigned);
	/* __int128 and other widths D has no name for */
	dt_type_t *t = dt_modimport_new(imp, DT_TK_INT, name, size);
	t->issigned = issigned;
	return t;
}

dt_type_t *
dt_modimport_float(dt_modimport_t *imp, const char *name, uint64_t size)
{
	dt_type_t *t = NULL;

	switch (size) {
	case 4: t = dt_type_lookup_d(imp->pcb, "float"); break;
	case 8: t = dt_type_lookup_d(imp->pcb, "double"); break;
	case 16: t = dt_type_lookup_d(imp->pcb, "long double"); break;
	default: break;
	}
	if (t == NULL) {
		t = dt_modimport_new(imp, DT_TK_FLOAT, name, size);
		t->issigned = true;
	}
	return t;
}

/* ---- lookups ---------------------------------------------------------------- */

/* Find `name' of `kind' in one module: its type or NULL (lock held). */
static dt_type_t *
dt_mod_find(dt_pcb_t *pcb, dt_mod_t *m, dt_tkind_t kind, const char *name)
{
	dt_modobj_t *o = dt_mod_obj(m);
	dt_modimport_t imp = {pcb, m};
	uint64_t id;

	if (o == NULL || o->reader == NULL || (id = o->reader->find(o->h, kind, name)) == 0)
		return NULL;
	return dt_modimport_type(&imp, id);
}

static dt_type_t *
dt_modtypes_search(dt_pcb_t *pcb, struct dt_modtypes *mt, int kind, const char *mod, const char *name)
{
	dt_type_t *t = NULL;

	for (size_t i = 0; i < mt->nmods && t == NULL; i++) {
		if (!dt_mod_match(mt, &mt->mods[i], mod))
			continue;
		if (kind == DT_TK_FWD) {
			static const dt_tkind_t any[] = {DT_TK_STRUCT, DT_TK_UNION, DT_TK_ENUM};
			for (size_t k = 0; k < 3 && t == NULL; k++)
				t = dt_mod_find(pcb, &mt->mods[i], any[k], name);
		} else {
			t = dt_mod_find(pcb, &mt->mods[i], (dt_tkind_t)kind, name);
		}
	}
	return t;
}

/* The type of module m's global `name' (lock held), or NULL. */
static dt_type_t *
dt_modsym_type(dt_pcb_t *pcb, dt_mod_t *m, const char *name)
{
	dt_modobj_t *o = dt_mod_obj(m);
	dt_modimport_t imp = {pcb, m};
	uint64_t id;

	if (o == NULL || o->reader == NULL || (id = o->reader->find_var(o->h, name)) == 0)
		return NULL;
	return dt_modimport_type(&imp, id);
}

/*
 * Run one of the two above under the module lock.  The readers never fail
 * the compilation themselves, but dt_zalloc() running out of memory does,
 * by longjmp() to pcb->jmp: while the lock is held that jump comes here
 * first to drop the lock, then goes on to the compilation's own handler.
 */
static dt_type_t *
dt_modtypes_locked(dt_pcb_t *pcb, struct dt_modtypes *mt, dt_mod_t *m, int kind, const char *mod,
		   const char *name)
{
	jmp_buf saved;
	dt_type_t *t;

	memcpy(saved, pcb->jmp, sizeof(jmp_buf));
	if (setjmp(pcb->jmp) != 0) {
		(void)pthread_mutex_unlock(&dt_modobj_lock);
		memcpy(pcb->jmp, saved, sizeof(jmp_buf));
		longjmp(pcb->jmp, 1);
	}
	(void)pthread_mutex_lock(&dt_modobj_lock);
	t = m != NULL ? dt_modsym_type(pcb, m, name) : dt_modtypes_search(pcb, mt, kind, mod, name);
	(void)pthread_mutex_unlock(&dt_modobj_lock);
	memcpy(pcb->jmp, saved, sizeof(jmp_buf));
	return t;
}

static dt_type_t *
dt_modtypes_find(dt_pcb_t *pcb, int kind, const char *scoped)
{
	struct dt_modtypes *mt = dt_mods(pcb);
	uint32_t h = dt_strhash(scoped, kind);
	dt_namecache_t *c;
	const char *mod, *name;
	dt_type_t *t = NULL;

	if (mt->cachesize != 0)
		for (c = mt->cache[h % mt->cachesize]; c != NULL; c = c->next)
			if (c->kind == kind && strcmp(c->name, scoped) == 0)
				return c->type;
	name = dt_mod_split(pcb, scoped, &mod);
	if (name[0] != '\0' && mt->nmods > 0)
		t = dt_modtypes_locked(pcb, mt, NULL, kind, mod, name);
	/* a program of many distinct names (enumerators, inlines) keeps the chains short */
	if (mt->ncached >= 2 * mt->cachesize) {
		size_t size = mt->cachesize != 0 ? 4 * mt->cachesize : DT_MEMO_BUCKETS;
		dt_namecache_t **cache = dt_zalloc(pcb, size * sizeof(*cache)), *n;

		for (size_t i = 0; i < mt->cachesize; i++) {
			for (c = mt->cache[i]; c != NULL; c = n) {
				uint32_t b = dt_strhash(c->name, c->kind) % size;
				n = c->next;
				c->next = cache[b];
				cache[b] = c;
			}
		}
		mt->cache = cache;
		mt->cachesize = size;
	}
	c = dt_zalloc(pcb, sizeof(*c));
	c->kind = kind;
	c->name = dt_strdup(pcb, scoped);
	c->type = t;
	c->next = mt->cache[h % mt->cachesize];
	mt->cache[h % mt->cachesize] = c;
	mt->ncached++;
	return t;
}

dt_type_t *
dt_modtypes_lookup(dt_pcb_t *pcb, const char *name)
{
	/* only identifiers can name module types; skip "unsigned int" and friends */
	for (const char *p = name; *p != '\0'; p++)
		if (*p == ' ' || *p == '*')
			return NULL;
	return dt_modtypes_find(pcb, DT_TK_TYPEDEF, name);
}

dt_type_t *
dt_modtypes_tag(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag)
{
	if (kind != DT_TK_STRUCT && kind != DT_TK_UNION && kind != DT_TK_ENUM)
		kind = DT_TK_FWD;
	return dt_modtypes_find(pcb, kind, tag);
}

/* ---- symbols ---------------------------------------------------------------- */

/*
 * Look up data or function symbol `name' in the ELF file at path (.symtab,
 * else .dynsym): its link-time value, and the file's link-time address of
 * offset 0 and whether it is a fixed-address executable, to find where the
 * process put it.
 */
static bool
dt_elf_symbol(const char *path, const char *name, uint64_t *valuep, uint64_t *basep, bool *isexecp)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	bool found = false;
	int fd;

	if ((elf = dt_elf_open(path, &fd)) == NULL)
		return false;
	*basep = dt_elf_loadbase(elf, isexecp);
	for (int pass = 0; pass < 2 && !found; pass++) {
		Elf32_Word want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;
		scn = NULL;
		while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *data;

			if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != want || sh.sh_entsize == 0 ||
			    (data = elf_getdata(scn, NULL)) == NULL)
				continue;
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;
				const char *sn;
				int type;

				if (gelf_getsym(data, (int)i, &sym) == NULL || sym.st_shndx == SHN_UNDEF)
					continue;
				type = GELF_ST_TYPE(sym.st_info);
				if (type != STT_OBJECT && type != STT_FUNC && type != STT_COMMON)
					continue;
				sn = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (sn != NULL && strcmp(sn, name) == 0) {
					*valuep = sym.st_value;
					found = true;
					break;
				}
			}
		}
	}
	dt_elf_close(elf, fd);
	return found;
}

/* The node of symbol mod`name of type t at addr, as DTrace's DT_NODE_SYM behaves. */
static dt_node_t *
dt_modsym_node(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags, const char *modname, const char *name, uint64_t addr,
	       dt_type_t *t)
{
	/*
	 * A variable is the object at its address, *(T *)addr; a
	 * function is its address, (T *)addr, as C's designators decay.
	 */
	dt_node_t *a = dt_node_int(pcb, addr);
	a->type = pcb->t_uint64; /* an address: no sign to extend when cast to a pointer */
	a->flags &= ~DT_NF_SIGNED;
	dt_node_t *cast = dt_node_op2(pcb, DT_TOK_LPAR, dt_node_type(pcb, dt_type_ptr(pcb, t)), a);
	a->line = cast->line = n->line;
	dt_node_t *d = cast;
	if (dt_type_resolve(t)->kind != DT_TK_FUNC) {
		d = dt_node_op1(pcb, DT_TOK_DEREF, cast);
		d->line = n->line;
	}
	/* DTrace's symbol node: _dtrace_symattr, checked against -x amin as the symbol */
	uint32_t cflags = pcb->cflags;
	char what[512];
	pcb->cflags &= ~DT_C_EATTR;
	d = dt_cook(pcb, d, idflags);
	pcb->cflags = cflags;
	/*
	 * DTrace's symbol node is an lvalue but not writable: '=', '++'
	 * and their kin refuse it (D_OP_WRITE), and so its members and
	 * elements, as the cast to a pointer above would not.
	 */
	d->flags &= ~DT_NF_WRITABLE;
	snprintf(what, sizeof(what), "symbol %s`%s", modname, name);
	dt_node_attr_assign_named(pcb, d, dt_attr_sym, what);
	d->sym = dt_strdup(pcb, what + strlen("symbol ")); /* -x tree prints DTrace's symbol node */
	return d;
}

dt_node_t *
dt_modsym_cook(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags)
{
	struct dt_modtypes *mt = dt_mods(pcb);
	const char *mod, *name = dt_mod_split(pcb, n->string, &mod);
	const char *mark = strstr(n->string, "``") != NULL ? "``" : "`";

	bool anymod = mod != NULL && (strcmp(mod, "D") == 0 || strcmp(mod, "C") == 0); /* DTrace's D and C modules always exist */

	if (mod == NULL)
		return NULL;
	/*
	 * `sym and ``sym name no module: DTrace looks the symbol up in every
	 * kernel module (DTRACE_OBJ_KMODS) or every user module (UMODS), the
	 * first in load order that has it.  Here every module is both, so both
	 * search them all: the compiler's main program, its libraries, then the
	 * target's objects.
	 */
	bool every = mod[0] == '\0';
	/*
	 * D`f names an extern declared in the program: a symbol of DTrace's
	 * "D" module, which is not a kernel module, so the single mark (a
	 * kernel symbol) is refused as DTrace's dt_xcook_ident refuses it.
	 */
	if (strcmp(mod, "D") == 0 && strstr(n->string, "``") == NULL &&
	    dt_idtab_lookup(&pcb->externs, name) != NULL)
		dnerror(pcb, n, D_SYM_BADREF, "user module 'D' symbol '%s' may not be referenced as a kernel symbol",
			name);
	/*
	 * An extern the program declared is a symbol of DTrace's "D" module
	 * (its dm_extern): D``f names it, and so does ``f, as the search of
	 * every user module (DTRACE_OBJ_UMODS) meets "D", made when the handle
	 * opened, before the modules of the system; `f searches the kernel's
	 * modules only, which "D" is not.  Such a symbol is undefined, its
	 * value 0: a program may use its type, and reading it faults.
	 */
	dt_ident_t *ext;
	if (strcmp(mark, "``") == 0 && (every || strcmp(mod, "D") == 0) &&
	    (ext = dt_idtab_lookup(&pcb->externs, name)) != NULL)
		return dt_modsym_node(pcb, n, idflags, "D", name, 0, ext->type);
	for (size_t i = 0; i < mt->nmods; i++) {
		dt_mod_t *m = &mt->mods[i];
		uint64_t value, base, addr;
		bool isexec;
		dt_type_t *t;

		if (!every && !dt_mod_match(mt, m, mod))
			continue;
		anymod = true;
		if (name[0] == '\0' || !dt_elf_symbol(m->path, name, &value, &base, &isexec))
			continue;
		addr = isexec ? value : m->start - m->off - base + value;
		t = dt_modtypes_locked(pcb, mt, m, 0, NULL, name);
		if (t == NULL)
			dnerror(pcb, n, D_SYM_NOTYPES, "no symbolic type information is available for %s%s%s: %s",
				m->name, mark, name,
				m->obj != NULL && m->obj->reader != NULL
					? "Symbol has no type in the module's type data"
					: "Module does not contain any CTF or DWARF data");
		return dt_modsym_node(pcb, n, idflags, m->name, name, addr, t);
	}
	/* a scoped name is never a D variable: DTrace's words for what is missing */
	dnerror(pcb, n, D_IDENT_UNDEF, "failed to resolve %s: %s", n->string,
		anymod ? "Unknown symbol name" : "Unknown module name");
}

bool
dt_modtypes_have_module(dt_pcb_t *pcb, const char *mod)
{
	struct dt_modtypes *mt = dt_mods(pcb);
	bool found = false;

	(void)pthread_mutex_lock(&dt_modobj_lock);
	for (size_t i = 0; i < mt->nmods && !found; i++) {
		dt_modobj_t *o;
		if (dt_mod_match(mt, &mt->mods[i], mod) && (o = dt_mod_obj(&mt->mods[i])) != NULL)
			found = o->reader != NULL;
	}
	(void)pthread_mutex_unlock(&dt_modobj_lock);
	return found;
}
