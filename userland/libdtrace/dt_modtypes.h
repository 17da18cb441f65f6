/*
 * dt_modtypes.h: types and symbols of a process's modules for the D compiler
 * (private to the compiler).
 *
 * On the Linux user-space host a module is a loaded object of a process:
 * the program that runs the compiler (the dtrace command), its libraries,
 * and with -c/-p ($target) the target's objects, as /proc/<pid>/maps lists
 * them, named by the file's base name.  A D program names their types as
 * C does (`struct foo', `foo_t') or scoped to one module with a backquote
 * (`struct libfoo.so`foo', `libfoo.so`foo_t'), and their global variables
 * as `module`name', or `name and ``name for the first module in load
 * order that has one (DTrace's kernel and user marks: every module here is
 * both).
 *
 * dt_types.c calls dt_modtypes_lookup()/dt_modtypes_tag() only after D's
 * own names missed, which gives DTrace's order for unscoped names: D's types,
 * then the modules in load order (the compiler's process first, its main
 * program before its libraries, then the target's).  dt_check.c calls
 * dt_modsym_cook() for a backquoted identifier that is not a D variable.
 *
 * Each object's type data is read lazily: nothing is opened until a name
 * misses D's tables, and then one object at a time, in order, until a
 * module knows the name.  An object's data is CTF (the .ctf section, read
 * with libctf: dt_ctf.c) or, when it has none, DWARF (read with libdwarf:
 * dt_dwarf.c).  Opened objects stay open for the life of the process (one
 * lock serialises all use; compilations may run in parallel); the
 * dt_type_t built from them belong to one compilation's arena, memoised
 * per compilation by (module, type id) so recursive types close and each
 * type is built once.
 */
#ifndef DT_MODTYPES_H
#define DT_MODTYPES_H

#include <stdint.h>

#include "dt_parse.h"

/* ---- what dt_types.c and dt_check.c call ------------------------------ */

/* A typedef name, plain ("foo_t") or scoped ("mod`foo_t"); NULL when no module has it. */
dt_type_t *dt_modtypes_lookup(dt_pcb_t *pcb, const char *name);
/* A struct/union/enum definition by tag (kind DT_TK_FWD: any of them). */
dt_type_t *dt_modtypes_tag(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag);
/*
 * `mod`sym' as an expression: *(T *)address, with T the variable's type
 * from the module's type data and address where the module's symbol lives
 * in the process that loaded it; a function is (T *)address, its address
 * typed as a pointer to its function type (so `&mod`func' is refused).
 * Returns the cooked node, or NULL for a name without a backquote.  A
 * scoped name is never a D variable: no such module or symbol fails the
 * compilation with DTrace's D_IDENT_UNDEF words, a symbol without type
 * information with D_SYM_NOTYPES.
 */
dt_node_t *dt_modsym_cook(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags);
/* #pragma D depends_on module: is `mod' loaded, with type data (CTF or DWARF)? */
bool dt_modtypes_have_module(dt_pcb_t *pcb, const char *mod);

/* ---- between dt_modtypes.c and the readers (dt_ctf.c, dt_dwarf.c) ----- */

typedef struct dt_modimport dt_modimport_t;

/*
 * A reader of one format.  Ids are the reader's own (CTF type ids, DWARF
 * DIE offsets), never 0.  Called with the module lock held.
 */
typedef struct dt_typereader {
	const char *name;             /* "CTF", "DWARF" */
	void *(*open)(const char *path); /* NULL: the object has no such data */
	/* A typedef (kind DT_TK_TYPEDEF) or a struct/union/enum tag's definition: id or 0. */
	uint64_t (*find)(void *h, dt_tkind_t kind, const char *name);
	/* The type of global variable `name': id or 0. */
	uint64_t (*find_var)(void *h, const char *name);
	/* Build the dt_type_t of id (through dt_modimport_type() for what it refers to). */
	dt_type_t *(*build)(dt_modimport_t *imp, void *h, uint64_t id);
} dt_typereader_t;

extern const dt_typereader_t dt_ctf_reader;
extern const dt_typereader_t dt_dwarf_reader;

/* The compilation an import is for (readers allocate with dt_zalloc(pcb)). */
dt_pcb_t *dt_modimport_pcb(dt_modimport_t *imp);
/* The dt_type_t of id in the module being imported: memoised, else built. */
dt_type_t *dt_modimport_type(dt_modimport_t *imp, uint64_t id);
/* Record id's type before building its members, so references back to it close the cycle. */
void dt_modimport_memo(dt_modimport_t *imp, uint64_t id, dt_type_t *t);
/*
 * A definition of tag `name' of `kind' in the same module (readers call
 * this for a forward declaration): its type, or NULL.
 */
dt_type_t *dt_modimport_tagdef(dt_modimport_t *imp, dt_tkind_t kind, const char *name);
/* A new type owned by the compilation and marked as coming from a module. */
dt_type_t *dt_modimport_new(dt_modimport_t *imp, dt_tkind_t kind, const char *name, uint64_t size);
/* The compiler's integer / floating-point type of a module's base type. */
dt_type_t *dt_modimport_int(dt_modimport_t *imp, const char *name, uint64_t size, bool issigned,
			    bool ischar);
dt_type_t *dt_modimport_float(dt_modimport_t *imp, const char *name, uint64_t size);

#endif /* DT_MODTYPES_H */
