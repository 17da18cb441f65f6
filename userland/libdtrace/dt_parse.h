/*
 * dt_parse.h: the D compiler's front end (private to the compiler).
 *
 * A compilation runs in one dt_pcb_t (parser control block): the flex
 * scanner and the bison parser build a tree of dt_node_t, declarations
 * create dt_type_t and dt_ident_t, the checker ("cooking", dt_check.c)
 * gives every node a type and applies DTrace's semantic rules, and the code
 * generator (dt_cg.c) turns each clause into DIFOs.  Errors anywhere
 * longjmp() to the pcb's jump buffer after filling in the error: nothing is
 * freed piecemeal, every allocation is owned by the pcb's arena and released
 * at once.
 */
#ifndef DT_PARSE_H
#define DT_PARSE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dt_compile.h"
#include "dt_errtags.h"

typedef struct dt_pcb dt_pcb_t;
typedef struct dt_node dt_node_t;
typedef struct dt_type dt_type_t;
typedef struct dt_ident dt_ident_t;

/* ---- memory: everything lives until the compilation ends ---------------- */
void *dt_zalloc(dt_pcb_t *pcb, size_t size);
char *dt_strdup(dt_pcb_t *pcb, const char *s);
char *dt_strndup(dt_pcb_t *pcb, const char *s, size_t n);

/* ---- errors ---------------------------------------------------------------- */
/* Fail the compilation at pcb's current line (or `line' when > 0). */
_Noreturn void dt_error(dt_pcb_t *pcb, int line, dt_errtag_t tag, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
_Noreturn void dnerror(dt_pcb_t *pcb, const dt_node_t *dnp, dt_errtag_t tag, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- types ------------------------------------------------------------------ */
typedef enum dt_tkind {
	DT_TK_VOID,
	DT_TK_INT,
	DT_TK_FLOAT,
	DT_TK_PTR,
	DT_TK_ARRAY,
	DT_TK_FUNC,
	DT_TK_STRUCT,
	DT_TK_UNION,
	DT_TK_ENUM,
	DT_TK_FWD, /* struct/union tag declared but not defined */
	DT_TK_TYPEDEF,
	DT_TK_STRING, /* D's string: a char array of strsize bytes, by reference */
	DT_TK_DYN,    /* translator output, args[] of unknown probes */
} dt_tkind_t;

typedef struct dt_member {
	const char *name;
	dt_type_t *type;
	uint64_t off;    /* bytes (struct members) */
	int bits;        /* bit-field width, 0 when not a bit-field */
	int bitoff;      /* bit offset within the storage unit at off */
	int64_t value;   /* enumerators */
	struct dt_member *next;
} dt_member_t;

struct dt_type {
	dt_tkind_t kind;
	const char *name; /* base, typedef or tag name (NULL for derived types) */
	uint64_t size;
	uint32_t align;
	bool issigned;
	bool ischar;     /* char types: arrays of them are strings for trace() */
	bool isconst;
	bool isuser;     /* from a user process's type data */
	bool isvalue;    /* stack, _symaddr, _usymaddr: void typedefs whose values are not void */
	dt_type_t *ref;  /* pointee, element, typedef target, return type */
	uint64_t nelems; /* arrays */
	dt_member_t *members;
	dt_type_t **args; /* function parameters */
	int nargs;
	bool varargs;
	dt_type_t *ptrto; /* cached pointer-to-this */
	dt_tkind_t fwdkind; /* DT_TK_FWD declared in D: the struct, union or enum it stands for */
	dt_type_t *next;  /* in the pcb's list of named types */
	bool incdefs;     /* declared in a header cpp included: DTrace's "C" container (-x ctypes) */
};

dt_type_t *dt_type_resolve(dt_type_t *t); /* through typedefs */
/* -x ctypes, dtypes: the CTF of DTrace's "C" or "D" container of this compilation, to fd (dt_ctf_write.c) */
void dt_ctf_write(dt_pcb_t *pcb, int fd, bool dtypes);
dt_type_t *dt_type_lookup(dt_pcb_t *pcb, const char *name);  /* typedef/base name */
dt_type_t *dt_type_tag(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag);
/* D's own names only (declarations may shadow modules' types, dt_modtypes.h) */
dt_type_t *dt_type_lookup_d(dt_pcb_t *pcb, const char *name);
bool dt_type_is_cdefs(const dt_pcb_t *pcb, const dt_type_t *t);
dt_type_t *dt_type_tag_d(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag);
/* Enter a named struct, union, enum or forward declaration among D's tags. */
void dt_type_tag_add(dt_pcb_t *pcb, dt_type_t *t);
dt_type_t *dt_type_ptr(dt_pcb_t *pcb, dt_type_t *t);
dt_type_t *dt_type_ptr_sized(dt_pcb_t *pcb, dt_type_t *t, uint64_t size); /* a module's pointer */
dt_type_t *dt_type_array(dt_pcb_t *pcb, dt_type_t *t, uint64_t n);
dt_type_t *dt_type_new(dt_pcb_t *pcb, dt_tkind_t kind, const char *name, uint64_t size);
void dt_type_define(dt_pcb_t *pcb, const char *name, dt_type_t *t); /* typedef */
dt_type_t *dt_type_int(dt_pcb_t *pcb, uint64_t size, bool issigned);
char *dt_type_name(const dt_type_t *t, char *buf, size_t len);
bool dt_type_is_integer(dt_type_t *t);
bool dt_type_is_arith(dt_type_t *t);
bool dt_type_is_scalar(dt_type_t *t);
bool dt_type_is_pointer(dt_type_t *t);
bool dt_type_is_string(dt_type_t *t);
bool dt_type_is_void(dt_type_t *t);
bool dt_type_compat(dt_type_t *a, dt_type_t *b);
dt_member_t *dt_type_member(dt_type_t *sou, const char *name);
/* The bit-field member a . or -> node reads, else NULL (dt_check.c). */
dt_member_t *dt_node_field(const dt_node_t *n);
/* The bit-field whose type a value has: n's own, or that of the left side of
 * an assignment, ++ or -- (their value has the left operand's type). */
const dt_member_t *dt_value_field(const dt_node_t *n);
/* DTrace's integer rank (dt_type_promote): bits, plus one when unsigned. */
uint64_t dt_node_rank(const dt_node_t *n, bool *sg);
void dt_types_init(dt_pcb_t *pcb);

/* ---- identifiers -------------------------------------------------------- */
typedef enum dt_idkind {
	DT_IDENT_ARRAY,   /* associative array or built-in array */
	DT_IDENT_SCALAR,  /* scalar variable */
	DT_IDENT_PTR,     /* unused placeholder kind */
	DT_IDENT_FUNC,    /* subroutine */
	DT_IDENT_AGGFUNC, /* aggregating function */
	DT_IDENT_ACTFUNC, /* action */
	DT_IDENT_AGG,     /* aggregation */
	DT_IDENT_INLINE,  /* inline */
	DT_IDENT_XLATOR,  /* translator */
	DT_IDENT_ENUM,    /* enumerator */
} dt_idkind_t;

#define DT_IDFLG_TLS 0x0001    /* self-> */
#define DT_IDFLG_LOCAL 0x0002  /* this-> */
#define DT_IDFLG_WRITE 0x0004  /* D may assign it */
#define DT_IDFLG_REF 0x0008    /* referenced */
#define DT_IDFLG_MOD 0x0010    /* modified */
#define DT_IDFLG_DECL 0x0020   /* declared with a type */
#define DT_IDFLG_BUILTIN 0x0040
#define DT_IDFLG_USER 0x0080
#define DT_IDFLG_XLARG 0x0100 /* a translator's input parameter */
#define DT_IDFLG_CGREG 0x0200 /* code generation: its value is in register `id' */

struct dt_ident {
	const char *name;
	dt_idkind_t kind;
	uint32_t flags;
	uint32_t id;        /* DIF variable id, subroutine, action or agg function code */
	dt_type_t *type;    /* value type (NULL until assigned) */
	const char *proto;  /* built-in functions: argument prototype */
	dt_type_t **keys;   /* associative arrays: key types once known */
	int nkeys;
	int line;           /* where it was first defined */
	dt_ident_t *aggfunc; /* aggregation: the function first assigned */
	uint64_t aggarg;     /* aggregation: lquantize/llquantize parameters */
	int aggidx;          /* aggregation: index into pcb->aggs */
	dt_node_t *inline_expr; /* translators: the member list (DT_NODE_MEMBER, expression in left) */
	int64_t value;       /* enumerators */
	uint64_t nnodes;     /* inlines: nodes of the expanded expression (dt_decl.c) */
	dt_ident_t *xlarg;   /* translators: the input parameter (type: keys[0]) */
	dt_ident_t **iparams; /* inline arrays (inline T f[T1 a, ...] = e): the parameters, nkeys of them */
	dtrace_attribute_t attr; /* stability (DTrace's di_attr) */
	const char *lib;     /* the D library that declared it (pcb->library), NULL: the program */
	dt_ident_t *next;
};

/*
 * A list in definition order (DIF ids follow it) with a hash index over it
 * (dt_ident.c), so that tables of thousands of names (enumerators, inlines)
 * stay fast.
 */
typedef struct dt_idtab {
	dt_ident_t *head;
	uint32_t nextid;
	dt_ident_t *tail; /* last entry, when the index is current */
	dt_ident_t
	    *ihead; /* head when the index was built: entries linked in front since make it stale */
	dt_ident_t **index; /* open addressing: the first entry of each name */
	uint32_t isize, icount;
} dt_idtab_t;

/* The hash of a name in identifier tables (FNV-1a), for other indexes of names too. */
uint32_t dt_idtab_strhash(const char *s);
dt_ident_t *dt_idtab_lookup(dt_idtab_t *tab, const char *name);
/* Rebuild tab's index (after entries were linked in front of the list by hand). */
void dt_idtab_reindex(dt_pcb_t *pcb, dt_idtab_t *tab);
dt_ident_t *dt_idtab_insert(dt_pcb_t *pcb, dt_idtab_t *tab, const char *name, dt_idkind_t kind,
			    uint32_t flags);
const char *dt_idkind_name(dt_idkind_t kind);
void dt_idents_init(dt_pcb_t *pcb);
void dt_idents_reduce(dt_pcb_t *pcb, uint32_t v);
dt_ident_t *dt_builtin_lookup(dt_pcb_t *pcb, const char *name);

/* ---- parse tree --------------------------------------------------------------------------- */
typedef enum dt_nkind {
	DT_NODE_INT,
	DT_NODE_STRING,
	DT_NODE_IDENT,  /* not yet resolved */
	DT_NODE_VAR,    /* resolved variable; args = tuple for arrays */
	DT_NODE_FUNC,   /* call: ident = subroutine/action/aggfunc */
	DT_NODE_OP1,
	DT_NODE_OP2,
	DT_NODE_OP3,
	DT_NODE_AGG,    /* @name[keys] with aggfun */
	DT_NODE_TYPE,   /* a type name (casts, sizeof, offsetof, xlate) */
	DT_NODE_MEMBER, /* translator member / struct member on lhs of . -> */
	DT_NODE_XLATOR,
	DT_NODE_INLINE,
	DT_NODE_DECL,
	DT_NODE_CLAUSE,
	DT_NODE_PDESC,
	DT_NODE_IF,
	DT_NODE_PROG,
	DT_NODE_EXPSTMT, /* expression statement */
} dt_nkind_t;

/* flags on nodes */
#define DT_NF_SIGNED 0x01
#define DT_NF_COOKED 0x02
#define DT_NF_REF 0x04      /* value is a reference (strings, structs, arrays) */
#define DT_NF_LVALUE 0x08
#define DT_NF_WRITABLE 0x10
#define DT_NF_BITFIELD 0x20
#define DT_NF_USERLAND 0x40

struct dt_node {
	dt_nkind_t kind;
	int op;   /* DT_TOK_* for operators */
	int line;
	uint32_t flags;
	dt_type_t *type;
	uint64_t value;      /* DT_NODE_INT */
	const char *string;  /* DT_NODE_STRING, IDENT, member names */
	dt_ident_t *ident;
	dt_node_t *left, *right, *cond; /* OP2: left/right; OP3: cond ? left : right; OP1: left */
	dt_node_t *args;                 /* call arguments, array keys, clause actions */
	dt_node_t *aggfun;               /* DT_NODE_AGG */
	dt_node_t *list;                 /* next in a list */
	dt_member_t *member;             /* resolved . and -> member */
	/* clauses */
	dt_node_t *pdescs;
	dt_node_t *pred;
	int nkeys;
	int desc1; /* DT_NODE_PDESC: 1 + its index in prog->descs once matched */
	int depth; /* operators from here to the deepest leaf (dt_grammar.y's dt_nest) */
	dtrace_attribute_t attr; /* stability of the value (DTrace's dn_attr) */
	/* -x tree (dt_treedump.c) */
	dt_ident_t *inl;    /* the inline whose use this expansion is: DTrace's variable node */
	dt_node_t *inlargs; /* that use's subscripts, an inline array's */
	const char *sym;    /* a module's symbol, expanded here: DTrace's symbol node ("mod`name") */
	dt_node_t *subs;    /* a parsed clause: the clauses if/else made of it (dt_sugar) */
	dt_node_t *cooked;  /* one of those: its copy as last cooked (dt_compile_one) */
	dtrace_attribute_t ctxattr; /* a cooked clause: its probe context's attributes */
};

/* ---- statements as the code generator sees them ----------------------------- */
typedef struct dt_pdesc_text {
	const char *text;
	int line;
} dt_pdesc_text_t;

/* ---- the compilation ------------------------------------------------------------------- */
struct dt_arena;
struct dt_clause_out;

struct dt_pcb {
	jmp_buf jmp;
	struct dt_arena *arena;
	dt_cprog_t *prog;
	const dt_copts_t *opts;
	uint32_t cflags;
	uint32_t strsize;
	uint32_t vmax; /* newest D version the program may use (DT_VERSION_NUMBER) */
	int iregs, tregs; /* DIF registers code may use (-x iregs, tregs) */
	int treedump;     /* -x tree: the passes after which the tree is dumped (dt_treedump.c) */
	bool parsed;      /* the program's text is parsed: there is a tree to dump */
	dt_type_t *intrinsic; /* pcb->types once D's own types are defined: the rest are declared */
	const char *library; /* the library whose text is being read, NULL in a program's */
	void *scanner;
	int yystate;   /* lexer state the grammar asked for */
	int lineno;
	const char *filetag; /* file named by a cpp line marker */
	int parens, brackets, braces;
	int incomplete_tag;
	/* DTrace's declaration scopes as its lexer sees them (dt_decl.c, dt_dscope_*): bit d is depth d */
	uint64_t dscope_named, dscope_ptr;
	int dscope;
	/* macro arguments */
	int sargc;
	char **sargv;
	uint8_t *sflagv; /* referenced? */
	/* namespaces */
	dt_type_t *types;      /* named types (typedefs and bases) */
	dt_type_t *tags;       /* struct/union/enum tags */
	dt_type_t **tindex;    /* hash index over types and tags (dt_types.c) */
	uint32_t tisize, ticount;
	uint64_t ptrsize; /* the data model's pointers: 8, or 4 under dtrace -32 */
	dt_type_t *t_int, *t_uint, *t_char, *t_long, *t_ulong, *t_llong, *t_ullong, *t_int64, *t_uint64, *t_void,
		*t_string, *t_size, *t_ptrdiff, *t_voidptr, *t_dyn, *t_uchar, *t_short, *t_ushort,
		*t_stack,      /* stack(), ustack(), jstack(): DTrace's "stack", what %k takes */
		*t_symaddr,    /* sym(), func(), mod(): "_symaddr", what %a also takes */
		*t_usymaddr;   /* usym(), ufunc(), umod(), uaddr(): "_usymaddr", what %A takes */
	dt_idtab_t globals;   /* user globals and associative arrays */
	dt_idtab_t tls;       /* self-> */
	dt_idtab_t locals;    /* this-> */
	dt_idtab_t aggs;      /* @aggregations */
	dt_idtab_t builtins;  /* variables, subroutines, actions, inlines, enumerators */
	dt_idtab_t inlines;
	dt_idtab_t lexidents; /* type names the lexer took for new variables (dt_lex.l) */
	dt_idtab_t externs;   /* extern declarations, DTrace's D module's symbols (dt_decl.c) */
	dt_type_t *t_func;    /* the one function type externs have, "int ()" (dt_decl.c) */
	bool args_fwd;        /* dt_args_typename: an unknown struct/union/enum tag is a new forward (-lv) */
	dt_type_t *t_assoc;   /* DTrace's <DYN>, a typedef of void: an associative array's declarator as a type */
	dt_ident_t *xlators;  /* translators in declaration order (linked by next) */
	dt_ident_t *xlarg;    /* while cooking a translator's members: its input parameter */
	dt_ident_t **iparams; /* while cooking an inline array's definition: its parameters */
	int niparams;
	dt_node_t *root;      /* the program (list of clauses / declarations) */
	dt_node_t *clauses, *lastclause;
	/* context while checking a clause */
	dtrace_probedesc_t *ctx_pd;
	int ctx_argc; /* -1: unknown */
	dtrace_argdesc_t *ctx_args;
	bool ctx_unstable; /* the description names no one probe: args[] is D_ARGS_MULTI */
	bool in_clause;
	dtrace_probedesc_t ctx_pdbuf;   /* the description being compiled */
	dtrace_probedesc_t *descfirst; /* per prog->descs entry: its first matching probe */
	size_t descfirst_cap;
	bool fromfile;  /* compiled from a FILE: errors carry line numbers */
	bool has_sugar; /* the dtrace:::ERROR clause of if/else was added */
	/* output being built */
	struct dt_out *out;
	const char *region; /* "predicate", "action list": named in -n errors */
	/* -C */
	char *cppbuf;
	const char *src;
	size_t srclen;
	/* struct/union/enum definitions in progress */
	dt_type_t *sou_stack[32];
	dt_member_t *sou_last[32]; /* each struct's last member so far, so appending is O(1) */
	struct dt_membername {     /* (struct, member name) pairs defined so far, hashed (dt_decl.c) */
		const dt_type_t *sou;
		const char *name;
	} *mnames;
	uint32_t mnsize, mncount;
	int sou_depth;
	dt_type_t *enum_cur;
	dt_member_t *enum_last; /* enum_cur's last enumerator, so appending is O(1) */
	int64_t enum_next;
	struct dt_declspec *ds_outer; /* the specifiers a struct/union/enum keyword follows (dt_grammar.y) */
	uint64_t inline_nodes; /* nodes copied so far by uses of inlines and translator members (dt_decl.c) */
	struct dt_modtypes *modtypes; /* the modules' types, once asked for (dt_modtypes.c) */
	struct dt_pragpend *pragpend; /* #pragma attributes/binding waiting for their name (dt_parse.c) */
	/* stability: -x amin (DT_C_EATTR), the clause's probe description, #pragma D attributes provider */
	dtrace_attribute_t amin;
	dtrace_attribute_t ctx_attr;
	struct dt_prvattr *prvattrs;
};

/* lexer states the grammar selects */
#define YYS_CLAUSE 0 /* top level: probe descriptions and declarations */
#define YYS_EXPR 1   /* clause bodies, predicates, declarations */

void dt_lex_begin(dt_pcb_t *pcb, int state);
int dt_lex_lineno(dt_pcb_t *pcb); /* the scanner's current line */

/* ---- stability attributes (DTrace's dt_attr_min, _dtrace_defattr, ...) ---- */
extern const dtrace_attribute_t dt_attr_def;  /* Stable/Stable/Common */
extern const dtrace_attribute_t dt_attr_max;  /* Standard/Standard/Common */
extern const dtrace_attribute_t dt_attr_sym;  /* Private/Private/Unknown: kernel/module symbols */
extern const dtrace_attribute_t dt_attr_typ;  /* Private/Private/Unknown: types of modules */
extern const dtrace_attribute_t dt_attr_prv;  /* Private/Private/Unknown: a provider the program declares */
extern const dtrace_pattr_t dt_attr_prvdesc;  /* Unstable/Unstable/Common for every part */
dtrace_attribute_t dt_attr_min(dtrace_attribute_t a, dtrace_attribute_t b);
/* Set n's attributes; below -x amin, DTrace's D_ATTR_MIN "attributes for <node> (...) are less ..." */
void dt_node_attr_assign(dt_pcb_t *pcb, dt_node_t *n, dtrace_attribute_t attr);
/* The same, the node described as `what' ("symbol mod`sym") in the message. */
void dt_node_attr_assign_named(dt_pcb_t *pcb, dt_node_t *n, dtrace_attribute_t attr, const char *what);
/* The provider attributes `name' has in this compilation (#pragma D attributes provider applied);
   -1 when the host knows no such provider. */
int dt_provider_pattr(dt_pcb_t *pcb, const char *name, dtrace_pattr_t *pap);
/* Does the host (or the program's own declarations) know provider `name'? */
bool dt_provider_known(dt_pcb_t *pcb, const char *name);

/* ---- nodes ----------------------------------------------------------------- */
dt_node_t *dt_node_new(dt_pcb_t *pcb, dt_nkind_t kind);
dt_node_t *dt_node_int(dt_pcb_t *pcb, uint64_t v);
dt_node_t *dt_node_str(dt_pcb_t *pcb, const char *s);
dt_node_t *dt_node_ident(dt_pcb_t *pcb, const char *s);
dt_node_t *dt_node_op1(dt_pcb_t *pcb, int op, dt_node_t *c);
dt_node_t *dt_node_op2(dt_pcb_t *pcb, int op, dt_node_t *l, dt_node_t *r);
dt_node_t *dt_node_op3(dt_pcb_t *pcb, dt_node_t *c, dt_node_t *l, dt_node_t *r);
dt_node_t *dt_node_func(dt_pcb_t *pcb, dt_node_t *f, dt_node_t *args);
dt_node_t *dt_node_link(dt_node_t *a, dt_node_t *b);
dt_node_t *dt_node_type(dt_pcb_t *pcb, dt_type_t *t);
/* A type name written in the program: its attributes checked against -x amin as DTrace's parser does. */
dt_node_t *dt_node_type_written(dt_pcb_t *pcb, dt_type_t *t);
/* The same for a type name's node (dt_decl_typename) where the program uses it. */
dt_node_t *dt_node_type_checked(dt_pcb_t *pcb, dt_node_t *n);
/* A private copy of a chain of nodes (following ->list) and all their subtrees. */
dt_node_t *dt_node_copy_list(dt_pcb_t *pcb, const dt_node_t *n);
/* The same, each variable node of one of params[i] replaced by a copy of the node args[i]. */
dt_node_t *dt_node_copy_subst(dt_pcb_t *pcb, const dt_node_t *n, dt_ident_t **params, dt_node_t **args, int nparams);
int dt_node_count(const dt_node_t *n);
const char *dt_opstr(int op);

/* ---- declarations (dt_decl.c) --------------------------------------------------- */
#define DT_DS_SIGNED 0x01
#define DT_DS_UNSIGNED 0x02
#define DT_DS_SHORT 0x04
#define DT_DS_LONG 0x08
#define DT_DS_LONGLONG 0x10
#define DT_DS_CONST 0x20
#define DT_DS_VOLATILE 0x40
#define DT_DS_RESTRICT 0x80
#define DT_DS_USER 0x100 /* userland: a pointer into the process's address space (DTrace's DT_DA_USER) */

enum { DT_DC_NONE, DT_DC_AUTO, DT_DC_REGISTER, DT_DC_STATIC, DT_DC_EXTERN, DT_DC_TYPEDEF,
       DT_DC_SELF, DT_DC_THIS };

typedef struct dt_declspec {
	int cls;
	uint32_t mods;
	int base;           /* DT_KEY_* base keyword or 0 */
	dt_type_t *named;   /* typedef name, struct/union/enum */
	const char *ident;  /* a typedef name after the type: the declared name (dt_ds_tname) */
	int line;
} dt_declspec_t;

typedef struct dt_declarator dt_declarator_t;
struct dt_declarator {
	enum { DT_DD_NAME, DT_DD_PTR, DT_DD_ARRAY, DT_DD_FUNC } kind;
	const char *name;
	dt_declarator_t *inner; /* applied after this one (toward the name) */
	dt_node_t *dim;         /* array dimension expression, or tuple type list */
	dt_node_t *params;      /* DT_NODE_TYPE list for functions and tuple arrays */
	bool tuple;
	bool varargs;
	int bits;               /* struct bit-field width (-1: none) */
	dt_node_t *bitexpr;
	dt_node_t *init;
	int line;
	dt_declarator_t *next; /* next in a declarator list */
	dt_declarator_t *last; /* a list's first declarator: its last one (dt_dd_append) */
};

dt_declspec_t *dt_ds_new(dt_pcb_t *pcb);
void dt_ds_base(dt_pcb_t *pcb, dt_declspec_t *ds, int kw);
void dt_ds_mod(dt_pcb_t *pcb, dt_declspec_t *ds, uint32_t mod);
void dt_ds_class(dt_pcb_t *pcb, dt_declspec_t *ds, int cls);
void dt_ds_named(dt_pcb_t *pcb, dt_declspec_t *ds, dt_type_t *t);
void dt_ds_tname(dt_pcb_t *pcb, dt_declspec_t *ds, const char *name);
void dt_dscope_push(dt_pcb_t *pcb);
void dt_dscope_pop(dt_pcb_t *pcb);
void dt_dscope_name(dt_pcb_t *pcb);
void dt_dscope_ptr(dt_pcb_t *pcb);
void dt_dscope_reset(dt_pcb_t *pcb);
void dt_dscope_end(dt_pcb_t *pcb);
bool dt_dscope_named(const dt_pcb_t *pcb);
/* A use of inline idp at n is about to copy its expression: within the program's limit? */
void dt_decl_inline_use(dt_pcb_t *pcb, const dt_node_t *n, const dt_ident_t *idp);
void dt_decl_xlate_use(dt_pcb_t *pcb, const dt_node_t *n, const dt_node_t *member);
dt_type_t *dt_ds_type(dt_pcb_t *pcb, dt_declspec_t *ds);
dt_declarator_t *dt_dd_new(dt_pcb_t *pcb, int kind);
dt_declarator_t *dt_dd_append(dt_declarator_t *list, dt_declarator_t *d);
dt_type_t *dt_decl_type(dt_pcb_t *pcb, dt_type_t *base, dt_declarator_t *dd, const char **namep);
void dt_decl_declare(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *list);
dt_type_t *dt_decl_sou_begin(dt_pcb_t *pcb, int kw, const char *tag);
void dt_decl_sou_member(dt_pcb_t *pcb, dt_type_t *sou, dt_declspec_t *ds, dt_declarator_t *dd);
void dt_decl_sou_end(dt_pcb_t *pcb, dt_type_t *sou);
dt_type_t *dt_decl_enum_begin(dt_pcb_t *pcb, const char *tag);
dt_type_t *dt_decl_enum_ref(dt_pcb_t *pcb, const char *tag);
void dt_decl_enumerator(dt_pcb_t *pcb, dt_type_t *e, const char *name, dt_node_t *val);
void dt_decl_enum_end(dt_pcb_t *pcb, dt_type_t *e);
void dt_decl_inline(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd, dt_node_t *expr);
/* provider NAME { probe ...; }: probes are DT_NODE_MEMBER nodes (string: the
 * probe's name, args: its native parameter types, left: the translated ones) */
dt_node_t *dt_decl_probe(dt_pcb_t *pcb, const char *name, dt_node_t *nargs, dt_node_t *xargs);
void dt_decl_provider(dt_pcb_t *pcb, const char *name, dt_node_t *probes);
void dt_decl_provider_cook(dt_pcb_t *pcb, dt_node_t *pn);
/* The translator to `to' (a struct/union or a pointer to one) for expression src, or NULL;
   exact: only a translator declared from src's type (DTrace's three passes otherwise). */
dt_ident_t *dt_xlator_lookup(dt_pcb_t *pcb, dt_node_t *src, dt_type_t *to, bool exact);
/* The translator's member definition named name (DT_NODE_MEMBER), or NULL. */
dt_node_t *dt_xlator_member(dt_ident_t *xl, const char *name);
/* The translator behind a translated expression (xlate<T>(e), xlate<T *>(e), *xlate<T *>(e)). */
dt_ident_t *dt_node_xlator(dt_node_t *n);
/* Cook a new translator's member expressions with its parameter in scope (DTrace's checks). */
void dt_xlator_cook(dt_pcb_t *pcb, dt_ident_t *xl);
void dt_decl_xlator(dt_pcb_t *pcb, dt_type_t *to, dt_type_t *from, const char *argname,
		    dt_node_t *members);
/* prototypes checked as DTrace's dt_decl_prototype: what a parameter list may hold */
#define DT_DP_VARARGS 0x1 /* ... */
#define DT_DP_VOID 0x2    /* void */
#define DT_DP_ANON 0x4    /* parameters without names */
dt_node_t *dt_decl_param(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd);
int dt_decl_prototype(dt_pcb_t *pcb, dt_node_t *plist, dt_node_t *flist, const char *kind, unsigned flags);
dt_node_t *dt_decl_typename(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd);

/* ---- program structure ------------------------------------------------------------ */
void dt_clause_add(dt_pcb_t *pcb, dt_node_t *pdescs, dt_node_t *pred, dt_node_t *acts);
int dt_macro_value(const dt_pcb_t *pcb, const char *name, size_t len, int64_t *vp);
dt_node_t *dt_pdesc_node(dt_pcb_t *pcb, const char *text, int line);
void dt_pdesc_id_check(dt_pcb_t *pcb, unsigned long long id, int line, bool exists);
/* The description a DT_NODE_PDESC names, its $N expanded (errors as DTrace's parser's). */
void dt_pdesc_resolve(dt_pcb_t *pcb, dt_node_t *n, dtrace_probedesc_t *pd);
/* Append a clause, inline, translator or provider to the program (pcb->root's DT_NODE_PROG chain). */
void dt_prog_add(dt_pcb_t *pcb, dt_node_t *item);
void dt_pragma(dt_pcb_t *pcb, char *line);
/* A global, inline or enumerator just declared: the #pragma D attributes waiting for its name. */
void dt_pragma_apply(dt_pcb_t *pcb, dt_ident_t *idp);

/* ---- if/else: a clause as DTrace's sub-clauses (dt_sugar.c) ------------- */
dt_node_t *dt_sugar(dt_pcb_t *pcb, dt_node_t *clause);

/* ---- -x tree: the parse tree dumped to stderr (dt_treedump.c) ------------ */
bool dt_treedump_pass(const dt_pcb_t *pcb, int pass);
void dt_treedump_parsed(dt_pcb_t *pcb);            /* the parser's errors, before any pass prints */
void dt_treedump_program(dt_pcb_t *pcb, int pass); /* passes 1 and 3 */
void dt_treedump_clause(dt_pcb_t *pcb, const dt_node_t *c, const dt_node_t *pdescs); /* pass 2 */
void dt_treedump_d(dt_pcb_t *pcb, const dt_node_t *c); /* pass 4 */

/* ---- checking (dt_check.c) ------------------------------------------------ */
dt_node_t *dt_cook(dt_pcb_t *pcb, dt_node_t *dnp, uint32_t idflags);
bool dt_node_is_integer(dt_node_t *n);
bool dt_node_is_scalar(dt_node_t *n);
bool dt_node_is_string(dt_node_t *n);
bool dt_node_is_void(dt_node_t *n);
bool dt_node_is_dynamic(dt_node_t *n);
bool dt_node_is_actfunc(dt_node_t *n);
bool dt_node_is_argcompat(dt_node_t *l, dt_node_t *r); /* may r be passed as l's type? */
char *dt_node_type_name(dt_node_t *n, char *buf, size_t len);
int64_t dt_node_const(dt_pcb_t *pcb, dt_node_t *n, dt_errtag_t tag, const char *what);

/* ---- the parser and lexer ---------------------------------------------------- */
int dt_yyparse(dt_pcb_t *pcb);
int dt_lex_init(dt_pcb_t *pcb, const char *text, size_t len);
void dt_lex_fini(dt_pcb_t *pcb);

/* ---- back end (dt_cg.c, dt_as.c, dt_dof.c) --------------------------------------------- */
void dt_compile_program(dt_pcb_t *pcb);
/*
 * args[idx] in the clause's probe context (dt_action.c).  Returns NULL with
 * *type the type args[idx] reads as, or the translator to apply, with
 * *type the native type it takes and *xlated the type it makes; int64_t and
 * NULL when the host describes no arguments.  Fails as DTrace with
 * D_ARGS_MULTI, D_ARGS_IDX, D_ARGS_TYPE or D_ARGS_XLATOR.
 */
/* dtrace -lv: the names of opts->argtypes' types into opts->argnames (dt_action.c) */
void dt_args_names(dt_pcb_t *pcb);
dt_ident_t *dt_args_type(dt_pcb_t *pcb, dt_node_t *n, uint64_t idx, dt_type_t **type,
                         dt_type_t **xlated);

#endif /* DT_PARSE_H */
