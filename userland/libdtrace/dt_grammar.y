%{
/*
 * dt_grammar.y: the D grammar.
 *
 * A D program is a sequence of clauses (probe descriptions, optional
 * predicate, action block) and declarations (variables, typedefs, structs,
 * unions, enums, inlines, translators).  Expressions follow C's grammar and
 * precedence, plus D's additions: `^^' (logical xor), aggregations
 * (`@name[keys] = func(args)'), `self->' and `this->', `stringof',
 * `xlate<T>(e)' and the `/' ... `/' predicate delimiters (see dt_lex.l).
 *
 * Actions here only build the tree; every rule of typing and meaning is in
 * dt_check.c.  The grammar steers the lexer between the outer level (probe
 * descriptions) and C tokens with dt_lex_begin().
 */
#include <string.h>

#include "dt_parse.h"

/*
 * The parser's stacks, once they outgrow their first 200 entries, come from
 * the compilation's arena: an error longjmps out of dt_yyparse() past the
 * code that would free a malloc'd stack, and the arena is freed with the pcb.
 * Outgrown stacks stay in the arena until then (at most twice the deepest).
 */
#define YYMALLOC(n) dt_zalloc(pcb, (n))
#define YYFREE(p) ((void)(p))
%}

%code requires {
#include <stdint.h>
typedef struct dt_pcb dt_pcb_t;
typedef struct dt_node dt_node_t;
typedef struct dt_type dt_type_t;
typedef struct dt_declspec dt_declspec_t;
typedef struct dt_declarator dt_declarator_t;
typedef struct dt_yyval {
	uint64_t l_int;
	int l_intkind;
	int l_tok;
	char *l_str;
	dt_node_t *l_node;
	dt_node_t *l_tail; /* a list's last node, so appending is not quadratic */
	dt_type_t *l_type;
	dt_declspec_t *l_ds;
	dt_declarator_t *l_dd;
} dt_yyval_t;
}

%code provides {
int dt_yylex(DT_YYSTYPE *lval, void *scanner);
void dt_yyerror(dt_pcb_t *pcb, const char *msg);
const char *dt_lex_text(dt_pcb_t *pcb);
int dt_lex_lineno(dt_pcb_t *pcb);
}

/*
 * Conflicts: none reduce/reduce and exactly one shift/reduce.  With %expect
 * bison fails the build on any other count, and on any reduce/reduce
 * conflict at all (%expect-rr is for GLR parsers only; this is LALR(1)).
 * The one shift/reduce conflict is C's dangling else: in
 * `if (a) if (b) s1; else s2;' the else could close either if; shifting
 * gives it to the nearest one, as C and DTrace do.  Whether a typedef name
 * is a type or a name is settled by the lexer as DTrace's is: a variable's
 * name, or the name a declaration declares once its type is known, is an
 * identifier (dt_id_or_type in dt_lex.l, dt_dscope_* in dt_decl.c, which the
 * actions below keep in step with the parse); a declarator's name is an
 * identifier only.
 */
%expect 1

%define api.pure full
%define api.prefix {dt_yy}
%define api.value.type {dt_yyval_t}
%define parse.error verbose
%parse-param {dt_pcb_t *pcb}
%lex-param {void *scanner_}

%{
#define scanner_ (pcb->scanner)
static dt_node_t *dt_int_node(dt_pcb_t *pcb, uint64_t v, int kind);
static void dt_ds_keyword(dt_pcb_t *pcb, dt_declspec_t *ds, int kw);
static dt_node_t *dt_nest(dt_pcb_t *pcb, dt_node_t *n);
static dt_node_t *dt_list_add(dt_node_t *head, dt_node_t *tail, dt_node_t *add, dt_node_t **tailp);
%}

%token <l_int> DT_TOK_INT
%token <l_str> DT_TOK_STRING DT_TOK_IDENT DT_TOK_TNAME DT_TOK_AGG DT_TOK_PSPEC
%token DT_TOK_EPRED

%token DT_TOK_COMMA DT_TOK_ELLIPSIS
%token DT_TOK_ASGN DT_TOK_ADD_EQ DT_TOK_SUB_EQ DT_TOK_MUL_EQ DT_TOK_DIV_EQ DT_TOK_MOD_EQ
%token DT_TOK_AND_EQ DT_TOK_XOR_EQ DT_TOK_OR_EQ DT_TOK_LSH_EQ DT_TOK_RSH_EQ
%token DT_TOK_QUESTION DT_TOK_COLON
%token DT_TOK_LOR DT_TOK_LXOR DT_TOK_LAND DT_TOK_BOR DT_TOK_XOR DT_TOK_BAND
%token DT_TOK_EQU DT_TOK_NEQ DT_TOK_LT DT_TOK_LE DT_TOK_GT DT_TOK_GE
%token DT_TOK_LSH DT_TOK_RSH DT_TOK_ADD DT_TOK_SUB DT_TOK_MUL DT_TOK_DIV DT_TOK_MOD
%token DT_TOK_LNEG DT_TOK_BNEG DT_TOK_ADDADD DT_TOK_SUBSUB
%token DT_TOK_PREINC DT_TOK_POSTINC DT_TOK_PREDEC DT_TOK_POSTDEC
%token DT_TOK_IPOS DT_TOK_INEG DT_TOK_DEREF DT_TOK_ADDROF
%token DT_TOK_OFFSETOF DT_TOK_SIZEOF DT_TOK_STRINGOF DT_TOK_XLATE
%token DT_TOK_LPAR DT_TOK_RPAR DT_TOK_LBRAC DT_TOK_RBRAC DT_TOK_PTR DT_TOK_DOT

%token DT_KEY_AUTO DT_KEY_BREAK DT_KEY_CASE DT_KEY_CHAR DT_KEY_CONST DT_KEY_CONTINUE
%token DT_KEY_COUNTER DT_KEY_DEFAULT DT_KEY_DO DT_KEY_DOUBLE DT_KEY_ELSE DT_KEY_ENUM
%token DT_KEY_EXTERN DT_KEY_FLOAT DT_KEY_FOR DT_KEY_GOTO DT_KEY_IF DT_KEY_IMPORT
%token DT_KEY_INLINE DT_KEY_INT DT_KEY_LONG DT_KEY_PROBE DT_KEY_PROVIDER DT_KEY_REGISTER
%token DT_KEY_RESTRICT DT_KEY_RETURN DT_KEY_SELF DT_KEY_SHORT DT_KEY_SIGNED DT_KEY_STATIC
%token DT_KEY_STRING DT_KEY_STRUCT DT_KEY_SWITCH DT_KEY_THIS DT_KEY_TYPEDEF DT_KEY_UNION
%token DT_KEY_UNSIGNED DT_KEY_USERLAND DT_KEY_VOID DT_KEY_VOLATILE DT_KEY_WHILE DT_KEY_XLATOR

%type <l_node> type_name
%type <l_node> expression assignment_expression conditional_expression constant_expression
%type <l_node> logical_or_expression logical_xor_expression logical_and_expression
%type <l_node> inclusive_or_expression exclusive_or_expression and_expression
%type <l_node> equality_expression relational_expression shift_expression
%type <l_node> additive_expression multiplicative_expression cast_expression
%type <l_node> unary_expression postfix_expression primary_expression
%type <l_node> argument_expression_list probe_specifier_list probe_specifiers probe_specifier
%type <l_node> statement_list statement_list_impl statement statement_or_block
%type <l_node> provider_probe_list provider_probe probe_parameters
%type <l_node> xlator_member_list xlator_member parameter_type_list parameter_list
%type <l_node> parameter_declaration
%type <l_int> assignment_operator unary_operator
%type <l_str> member_name member_ident
%type <l_ds> declaration_specifiers specifier_qualifier_list parameter_declaration_specifiers
%type <l_ds> sq_untyped sq_typed
%type <l_int> storage_class d_storage_class type_qualifier type_keyword
%type <l_dd> declarator direct_declarator abstract_declarator direct_abstract_declarator
%type <l_dd> init_declarator_list init_declarator pointer struct_declarator struct_declarator_list
%type <l_dd> declarator_suffix
%type <l_type> struct_or_union_specifier enum_specifier struct_or_union_definition
%type <l_type> enum_definition type_tagged
%type <l_int> struct_or_union

%start program

%%

program:	  %empty
	|	translation_unit
	;

translation_unit:
		external_declaration
	|	translation_unit external_declaration
	;

external_declaration:
		probe_definition	{ dt_lex_begin(pcb, YYS_CLAUSE); }
	|	declaration		{ dt_lex_begin(pcb, YYS_CLAUSE); }
	|	inline_definition	{ dt_lex_begin(pcb, YYS_CLAUSE); }
	|	translator_definition	{ dt_lex_begin(pcb, YYS_CLAUSE); }
	|	provider_definition	{ dt_lex_begin(pcb, YYS_CLAUSE); }
	;

/* provider p { probe q(int, char *); probe r(struct s *) : (int); }; (for dtrace -h) */
provider_definition:
		DT_KEY_PROVIDER DT_TOK_IDENT '{' provider_probe_list '}' ';' {
			dt_decl_provider(pcb, $2, $4);
		}
	|	DT_KEY_PROVIDER DT_TOK_IDENT '{' '}' ';' { dt_decl_provider(pcb, $2, NULL); }
	;

provider_probe_list:
		provider_probe { $$ = $1; $<l_tail>$ = NULL; }
	|	provider_probe_list provider_probe { $$ = dt_list_add($1, $<l_tail>1, $2, &$<l_tail>$); }
	;

provider_probe:
		DT_KEY_PROBE DT_TOK_IDENT probe_parameters ';' { $$ = dt_decl_probe(pcb, $2, $3, NULL); }
	|	DT_KEY_PROBE DT_TOK_IDENT probe_parameters DT_TOK_COLON probe_parameters ';' {
			$$ = dt_decl_probe(pcb, $2, $3, $5);
		}
	;

probe_parameters:
		DT_TOK_LPAR DT_TOK_RPAR { $$ = NULL; }
	|	DT_TOK_LPAR parameter_type_list DT_TOK_RPAR { $$ = $2; }
	;

inline_definition:
		DT_KEY_INLINE declaration_specifiers declarator DT_TOK_ASGN dscope_push assignment_expression ';' {
			dt_dscope_pop(pcb);
			dt_dscope_end(pcb);
			dt_decl_inline(pcb, $2, $3, $6);
		}
	;

translator_definition:
		DT_KEY_XLATOR type_name DT_TOK_LT type_name DT_TOK_IDENT DT_TOK_GT '{' xlator_member_list '}' ';' {
			dt_decl_xlator(pcb, $2->type, $4->type, $5, $8);
		}
	|	DT_KEY_XLATOR type_name DT_TOK_LT type_name DT_TOK_IDENT DT_TOK_GT '{' '}' ';' {
			dt_decl_xlator(pcb, $2->type, $4->type, $5, NULL);
		}
	;

xlator_member_list:
		xlator_member { $$ = $1; $<l_tail>$ = NULL; }
	|	xlator_member_list xlator_member { $$ = dt_list_add($1, $<l_tail>1, $2, &$<l_tail>$); }
	;

xlator_member:
		member_name DT_TOK_ASGN assignment_expression ';' {
			$$ = dt_node_new(pcb, DT_NODE_MEMBER);
			$$->string = $1;
			$$->left = $3;
		}
	;

probe_definition:
		probe_specifiers {
			/* a bare description is a clause only on the command line (dtrace -n BEGIN) */
			if (pcb->fromfile)
				dnerror(pcb, $1, D_SYNTAX,
					"expected predicate and/or actions following probe description");
			dt_clause_add(pcb, $1, NULL, NULL);
		}
	|	probe_specifiers DT_TOK_DIV expression DT_TOK_EPRED {
			dnerror(pcb, $3, D_SYNTAX,
				"expected actions { } following probe description and predicate");
		}
	|	probe_specifiers '{' statement_list '}' {
			dt_clause_add(pcb, $1, NULL, $3);
		}
	|	probe_specifiers DT_TOK_DIV expression DT_TOK_EPRED '{' statement_list '}' {
			dt_clause_add(pcb, $1, $3, $6);
		}
	;

probe_specifiers:
		probe_specifier_list { dt_lex_begin(pcb, YYS_EXPR); $$ = $1; }
	;

probe_specifier_list:
		probe_specifier { $$ = $1; $<l_tail>$ = NULL; }
	|	probe_specifier_list DT_TOK_COMMA probe_specifier { $$ = dt_list_add($1, $<l_tail>1, $3, &$<l_tail>$); }
	;

probe_specifier:
		DT_TOK_PSPEC	{ $$ = dt_pdesc_node(pcb, $1, pcb->lineno); }
	|	DT_TOK_INT	{
			char buf[32];
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
			dt_pdesc_id_check(pcb, (unsigned long long)$1, pcb->lineno, true);
			$$ = dt_pdesc_node(pcb, dt_strdup(pcb, buf), pcb->lineno);
		}
	;

statement_list_impl:
		%empty				{ $$ = NULL; $<l_tail>$ = NULL; }
	|	statement_list_impl statement	{ $$ = dt_list_add($1, $<l_tail>1, $2, &$<l_tail>$); }
	;

statement_list:
		statement_list_impl
	|	statement_list_impl expression {
			dt_node_t *s = dt_node_new(pcb, DT_NODE_EXPSTMT);
			s->left = $2;
			s->line = $2->line;
			$$ = dt_list_add($1, $<l_tail>1, s, &$<l_tail>$);
		}
	;

statement_or_block:
		statement
	|	'{' statement_list '}' { $$ = $2; }
	;

statement:
		';'	{ $$ = NULL; }
	|	expression ';' {
			$$ = dt_node_new(pcb, DT_NODE_EXPSTMT);
			$$->left = $1;
			$$->line = $1->line;
		}
	|	DT_KEY_IF DT_TOK_LPAR expression DT_TOK_RPAR statement_or_block {
			$$ = dt_node_new(pcb, DT_NODE_IF);
			$$->cond = $3; $$->left = $5; $$->right = NULL;
		}
	|	DT_KEY_IF DT_TOK_LPAR expression DT_TOK_RPAR statement_or_block DT_KEY_ELSE statement_or_block {
			$$ = dt_node_new(pcb, DT_NODE_IF);
			$$->cond = $3; $$->left = $5; $$->right = $7;
		}
	;

/* ---- expressions ---- */

argument_expression_list:
		assignment_expression { $$ = $1; $<l_tail>$ = NULL; }
	|	argument_expression_list DT_TOK_COMMA assignment_expression {
			$$ = dt_list_add($1, $<l_tail>1, $3, &$<l_tail>$);
		}
	;

primary_expression:
		DT_TOK_IDENT	{ $$ = dt_node_ident(pcb, $1); }
	|	DT_TOK_AGG	{ $$ = dt_node_ident(pcb, $1); $$->op = DT_TOK_AGG; }
	|	DT_TOK_INT	{ $$ = dt_int_node(pcb, $1, $<l_intkind>1); }
	|	DT_TOK_STRING	{ $$ = dt_node_str(pcb, $1); }
	|	DT_KEY_SELF	{ $$ = dt_node_ident(pcb, "self"); }
	|	DT_KEY_THIS	{ $$ = dt_node_ident(pcb, "this"); }
	|	DT_TOK_LPAR expression DT_TOK_RPAR { $$ = $2; }
	;

member_name:
		DT_TOK_IDENT
	|	DT_TOK_TNAME
	|	DT_KEY_STRING	{ $$ = dt_strdup(pcb, "string"); }
	;

/*
 * A member named after . or -> or in offsetof(): DTrace also takes there the
 * D keywords a C type's member may be named (its dtrace_keyword_ident).
 */
member_ident:
		member_name
	|	DT_KEY_PROBE	{ $$ = dt_strdup(pcb, "probe"); }
	|	DT_KEY_PROVIDER	{ $$ = dt_strdup(pcb, "provider"); }
	|	DT_KEY_SELF	{ $$ = dt_strdup(pcb, "self"); }
	|	DT_TOK_STRINGOF	{ $$ = dt_strdup(pcb, "stringof"); }
	|	DT_KEY_USERLAND	{ $$ = dt_strdup(pcb, "userland"); }
	|	DT_TOK_XLATE	{ $$ = dt_strdup(pcb, "xlate"); }
	|	DT_KEY_XLATOR	{ $$ = dt_strdup(pcb, "translator"); }
	;

postfix_expression:
		primary_expression
	|	postfix_expression DT_TOK_LBRAC argument_expression_list DT_TOK_RBRAC {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LBRAC, $1, $3));
		}
	|	postfix_expression DT_TOK_LPAR DT_TOK_RPAR {
			$$ = dt_nest(pcb, dt_node_func(pcb, $1, NULL));
		}
	|	postfix_expression DT_TOK_LPAR argument_expression_list DT_TOK_RPAR {
			$$ = dt_nest(pcb, dt_node_func(pcb, $1, $3));
		}
	|	postfix_expression DT_TOK_DOT member_ident {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_DOT, $1, dt_node_ident(pcb, $3)));
		}
	|	postfix_expression DT_TOK_PTR member_ident {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_PTR, $1, dt_node_ident(pcb, $3)));
		}
	|	postfix_expression DT_TOK_ADDADD { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_POSTINC, $1)); }
	|	postfix_expression DT_TOK_SUBSUB { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_POSTDEC, $1)); }
	|	DT_TOK_OFFSETOF DT_TOK_LPAR type_name DT_TOK_COMMA member_ident DT_TOK_RPAR {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_OFFSETOF, $3, dt_node_ident(pcb, $5)));
		}
	|	DT_TOK_XLATE DT_TOK_LT type_name DT_TOK_GT DT_TOK_LPAR expression DT_TOK_RPAR {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_XLATE, dt_node_type_checked(pcb, $3), $6));
		}
	;

unary_expression:
		postfix_expression
	|	DT_TOK_ADDADD unary_expression { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_PREINC, $2)); }
	|	DT_TOK_SUBSUB unary_expression { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_PREDEC, $2)); }
	|	unary_operator cast_expression { $$ = dt_nest(pcb, dt_node_op1(pcb, (int)$1, $2)); }
	|	DT_TOK_SIZEOF unary_expression { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_SIZEOF, $2)); }
	|	DT_TOK_SIZEOF DT_TOK_LPAR type_name DT_TOK_RPAR {
			$$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_SIZEOF, dt_node_type_checked(pcb, $3)));
		}
	|	DT_TOK_STRINGOF unary_expression { $$ = dt_nest(pcb, dt_node_op1(pcb, DT_TOK_STRINGOF, $2)); }
	;

unary_operator:
		DT_TOK_BAND	{ $$ = DT_TOK_ADDROF; }
	|	DT_TOK_MUL	{ $$ = DT_TOK_DEREF; }
	|	DT_TOK_ADD	{ $$ = DT_TOK_IPOS; }
	|	DT_TOK_SUB	{ $$ = DT_TOK_INEG; }
	|	DT_TOK_BNEG	{ $$ = DT_TOK_BNEG; }
	|	DT_TOK_LNEG	{ $$ = DT_TOK_LNEG; }
	;

cast_expression:
		unary_expression
	|	DT_TOK_LPAR type_name DT_TOK_RPAR cast_expression {
			$$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LPAR, dt_node_type_checked(pcb, $2), $4));
		}
	;

multiplicative_expression:
		cast_expression
	|	multiplicative_expression DT_TOK_MUL cast_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_MUL, $1, $3)); }
	|	multiplicative_expression DT_TOK_DIV cast_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_DIV, $1, $3)); }
	|	multiplicative_expression DT_TOK_MOD cast_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_MOD, $1, $3)); }
	;

additive_expression:
		multiplicative_expression
	|	additive_expression DT_TOK_ADD multiplicative_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_ADD, $1, $3)); }
	|	additive_expression DT_TOK_SUB multiplicative_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_SUB, $1, $3)); }
	;

shift_expression:
		additive_expression
	|	shift_expression DT_TOK_LSH additive_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LSH, $1, $3)); }
	|	shift_expression DT_TOK_RSH additive_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_RSH, $1, $3)); }
	;

relational_expression:
		shift_expression
	|	relational_expression DT_TOK_LT shift_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LT, $1, $3)); }
	|	relational_expression DT_TOK_GT shift_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_GT, $1, $3)); }
	|	relational_expression DT_TOK_LE shift_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LE, $1, $3)); }
	|	relational_expression DT_TOK_GE shift_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_GE, $1, $3)); }
	;

equality_expression:
		relational_expression
	|	equality_expression DT_TOK_EQU relational_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_EQU, $1, $3)); }
	|	equality_expression DT_TOK_NEQ relational_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_NEQ, $1, $3)); }
	;

and_expression:
		equality_expression
	|	and_expression DT_TOK_BAND equality_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_BAND, $1, $3)); }
	;

exclusive_or_expression:
		and_expression
	|	exclusive_or_expression DT_TOK_XOR and_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_XOR, $1, $3)); }
	;

inclusive_or_expression:
		exclusive_or_expression
	|	inclusive_or_expression DT_TOK_BOR exclusive_or_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_BOR, $1, $3)); }
	;

logical_and_expression:
		inclusive_or_expression
	|	logical_and_expression DT_TOK_LAND inclusive_or_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LAND, $1, $3)); }
	;

logical_xor_expression:
		logical_and_expression
	|	logical_xor_expression DT_TOK_LXOR logical_and_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LXOR, $1, $3)); }
	;

logical_or_expression:
		logical_xor_expression
	|	logical_or_expression DT_TOK_LOR logical_xor_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_LOR, $1, $3)); }
	;

conditional_expression:
		logical_or_expression
	|	logical_or_expression DT_TOK_QUESTION expression DT_TOK_COLON conditional_expression {
			$$ = dt_nest(pcb, dt_node_op3(pcb, $1, $3, $5));
		}
	;

assignment_expression:
		conditional_expression
	|	unary_expression assignment_operator assignment_expression {
			$$ = dt_nest(pcb, dt_node_op2(pcb, (int)$2, $1, $3));
		}
	;

assignment_operator:
		DT_TOK_ASGN	{ $$ = DT_TOK_ASGN; }
	|	DT_TOK_MUL_EQ	{ $$ = DT_TOK_MUL_EQ; }
	|	DT_TOK_DIV_EQ	{ $$ = DT_TOK_DIV_EQ; }
	|	DT_TOK_MOD_EQ	{ $$ = DT_TOK_MOD_EQ; }
	|	DT_TOK_ADD_EQ	{ $$ = DT_TOK_ADD_EQ; }
	|	DT_TOK_SUB_EQ	{ $$ = DT_TOK_SUB_EQ; }
	|	DT_TOK_LSH_EQ	{ $$ = DT_TOK_LSH_EQ; }
	|	DT_TOK_RSH_EQ	{ $$ = DT_TOK_RSH_EQ; }
	|	DT_TOK_AND_EQ	{ $$ = DT_TOK_AND_EQ; }
	|	DT_TOK_XOR_EQ	{ $$ = DT_TOK_XOR_EQ; }
	|	DT_TOK_OR_EQ	{ $$ = DT_TOK_OR_EQ; }
	;

expression:
		assignment_expression
	|	expression DT_TOK_COMMA assignment_expression { $$ = dt_nest(pcb, dt_node_op2(pcb, DT_TOK_COMMA, $1, $3)); }
	;

constant_expression:
		conditional_expression
	;

/* ---- declarations ---- */

declaration:
		declaration_specifiers ';' { dt_dscope_end(pcb); dt_decl_declare(pcb, $1, NULL); }
	|	declaration_specifiers init_declarator_list ';' { dt_dscope_end(pcb); dt_decl_declare(pcb, $1, $2); }
	;

/* the first declarator follows the specifiers, so it cannot begin with a typedef name */
init_declarator_list:
		init_declarator
	|	init_declarator_list DT_TOK_COMMA init_declarator { $$ = dt_dd_append($1, $3); }
	;

/*
 * Declaration specifiers.  After a type the lexer gives a typedef's name as
 * an identifier (`int foo_t;' declares foo_t, which is then refused as a
 * typedef's name), except where DTrace's parser has not yet taken in the
 * type when the name is read: in `struct s foo_t;' the tag waits for the
 * token after it.  Such a typedef name among the specifiers is read as
 * DTrace's dt_decl_spec() reads it (dt_ds_tname()): the declared name, or in
 * a typedef a redeclaration.  Storage classes, qualifiers and type keywords
 * may come in any order; bad combinations are found by dt_ds_*().
 */
declaration_specifiers:
		d_storage_class			{ $$ = dt_ds_new(pcb); dt_ds_class(pcb, $$, (int)$1); }
	|	type_qualifier			{ $$ = dt_ds_new(pcb); dt_ds_mod(pcb, $$, (uint32_t)$1); }
	|	type_keyword			{ $$ = dt_ds_new(pcb); dt_ds_keyword(pcb, $$, (int)$1); }
	|	type_tagged			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, $1); }
	|	DT_TOK_TNAME			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, dt_type_lookup(pcb, $1)); }
	|	declaration_specifiers d_storage_class { dt_ds_class(pcb, $1, (int)$2); $$ = $1; }
	|	declaration_specifiers type_qualifier { dt_ds_mod(pcb, $1, (uint32_t)$2); $$ = $1; }
	|	declaration_specifiers type_keyword { dt_ds_keyword(pcb, $1, (int)$2); $$ = $1; }
	|	declaration_specifiers { pcb->ds_outer = $1; } type_tagged { dt_ds_named(pcb, $1, $3); $$ = $1; }
	|	declaration_specifiers DT_TOK_TNAME { dt_ds_tname(pcb, $1, $2); $$ = $1; }
	;

/*
 * A parameter's (or a tuple key's) specifiers may not begin with `self' or
 * `this', as in DTrace: in `int a[self * 2]' the dimension is an expression.
 */
parameter_declaration_specifiers:
		storage_class			{ $$ = dt_ds_new(pcb); dt_ds_class(pcb, $$, (int)$1); }
	|	type_qualifier			{ $$ = dt_ds_new(pcb); dt_ds_mod(pcb, $$, (uint32_t)$1); }
	|	type_keyword			{ $$ = dt_ds_new(pcb); dt_ds_keyword(pcb, $$, (int)$1); }
	|	type_tagged			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, $1); }
	|	DT_TOK_TNAME			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, dt_type_lookup(pcb, $1)); }
	|	parameter_declaration_specifiers d_storage_class { dt_ds_class(pcb, $1, (int)$2); $$ = $1; }
	|	parameter_declaration_specifiers type_qualifier { dt_ds_mod(pcb, $1, (uint32_t)$2); $$ = $1; }
	|	parameter_declaration_specifiers type_keyword { dt_ds_keyword(pcb, $1, (int)$2); $$ = $1; }
	|	parameter_declaration_specifiers { pcb->ds_outer = $1; } type_tagged { dt_ds_named(pcb, $1, $3); $$ = $1; }
	|	parameter_declaration_specifiers DT_TOK_TNAME { dt_ds_tname(pcb, $1, $2); $$ = $1; }
	;

/* Type names and struct/union members: the same, without storage classes. */
specifier_qualifier_list:
		sq_untyped
	|	sq_typed
	;

sq_untyped:
		type_qualifier			{ $$ = dt_ds_new(pcb); dt_ds_mod(pcb, $$, (uint32_t)$1); }
	|	sq_untyped type_qualifier	{ dt_ds_mod(pcb, $1, (uint32_t)$2); $$ = $1; }
	;

sq_typed:
		type_keyword			{ $$ = dt_ds_new(pcb); dt_ds_keyword(pcb, $$, (int)$1); }
	|	type_tagged			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, $1); }
	|	DT_TOK_TNAME			{ $$ = dt_ds_new(pcb); dt_ds_named(pcb, $$, dt_type_lookup(pcb, $1)); }
	|	sq_untyped type_keyword		{ dt_ds_keyword(pcb, $1, (int)$2); $$ = $1; }
	|	sq_untyped type_tagged		{ dt_ds_named(pcb, $1, $2); $$ = $1; }
	|	sq_untyped DT_TOK_TNAME		{ dt_ds_named(pcb, $1, dt_type_lookup(pcb, $2)); $$ = $1; }
	|	sq_typed type_qualifier		{ dt_ds_mod(pcb, $1, (uint32_t)$2); $$ = $1; }
	|	sq_typed type_keyword		{ dt_ds_keyword(pcb, $1, (int)$2); $$ = $1; }
	|	sq_typed { pcb->ds_outer = $1; } type_tagged { dt_ds_named(pcb, $1, $3); $$ = $1; }
	|	sq_typed DT_TOK_TNAME		{ dt_ds_tname(pcb, $1, $2); $$ = $1; }
	;

storage_class:
		DT_KEY_AUTO		{ $$ = DT_DC_AUTO; }
	|	DT_KEY_REGISTER		{ $$ = DT_DC_REGISTER; }
	|	DT_KEY_STATIC		{ $$ = DT_DC_STATIC; }
	|	DT_KEY_EXTERN		{ $$ = DT_DC_EXTERN; }
	|	DT_KEY_TYPEDEF		{ $$ = DT_DC_TYPEDEF; }
	;

d_storage_class:
		storage_class
	|	DT_KEY_SELF		{ $$ = DT_DC_SELF; }
	|	DT_KEY_THIS		{ $$ = DT_DC_THIS; }
	;

/* restrict changes no type, but like const it is an attribute: "restrict x;" names no type */
type_qualifier:
		DT_KEY_CONST		{ $$ = DT_DS_CONST; }
	|	DT_KEY_VOLATILE		{ $$ = DT_DS_VOLATILE; }
	|	DT_KEY_RESTRICT		{ $$ = DT_DS_RESTRICT; }
	;

type_keyword:
		DT_KEY_VOID		{ $$ = DT_KEY_VOID; }
	|	DT_KEY_CHAR		{ $$ = DT_KEY_CHAR; }
	|	DT_KEY_SHORT		{ $$ = DT_KEY_SHORT; }
	|	DT_KEY_INT		{ $$ = DT_KEY_INT; }
	|	DT_KEY_LONG		{ $$ = DT_KEY_LONG; }
	|	DT_KEY_FLOAT		{ $$ = DT_KEY_FLOAT; }
	|	DT_KEY_DOUBLE		{ $$ = DT_KEY_DOUBLE; }
	|	DT_KEY_SIGNED		{ $$ = DT_KEY_SIGNED; }
	|	DT_KEY_UNSIGNED		{ $$ = DT_KEY_UNSIGNED; }
	|	DT_KEY_USERLAND		{ $$ = DT_KEY_USERLAND; }
	|	DT_KEY_STRING		{ $$ = DT_KEY_STRING; }
	;

type_tagged:
		struct_or_union_specifier
	|	enum_specifier
	;

struct_or_union:
		DT_KEY_STRUCT	{ $$ = DT_KEY_STRUCT; }
	|	DT_KEY_UNION	{ $$ = DT_KEY_UNION; }
	;

struct_or_union_specifier:
		struct_or_union_definition struct_declaration_list '}' {
			dt_dscope_pop(pcb);
			dt_decl_sou_end(pcb, $1);
			$$ = $1;
		}
	|	struct_or_union DT_TOK_IDENT	{ $$ = dt_decl_sou_begin(pcb, (int)$1 | 0x10000, $2); }
	|	struct_or_union DT_TOK_TNAME	{ $$ = dt_decl_sou_begin(pcb, (int)$1 | 0x10000, $2); }
	;

struct_or_union_definition:
		struct_or_union '{'			{ $$ = dt_decl_sou_begin(pcb, (int)$1, NULL); dt_dscope_push(pcb); }
	|	struct_or_union DT_TOK_IDENT '{'	{ $$ = dt_decl_sou_begin(pcb, (int)$1, $2); dt_dscope_push(pcb); }
	|	struct_or_union DT_TOK_TNAME '{'	{ $$ = dt_decl_sou_begin(pcb, (int)$1, $2); dt_dscope_push(pcb); }
	;

struct_declaration_list:
		struct_declaration
	|	struct_declaration_list struct_declaration
	;

struct_declaration:
		specifier_qualifier_list struct_declarator_list ';' {
			dt_dscope_end(pcb);
			dt_decl_sou_member(pcb, NULL, $1, $2);
		}
	;

struct_declarator_list:
		struct_declarator
	|	struct_declarator_list DT_TOK_COMMA struct_declarator { $$ = dt_dd_append($1, $3); }
	;

struct_declarator:
		declarator { dt_dscope_reset(pcb); }
	|	DT_TOK_COLON constant_expression {
			$$ = dt_dd_new(pcb, DT_DD_NAME); $$->name = NULL; $$->bitexpr = $2;
		}
	|	declarator DT_TOK_COLON constant_expression { dt_dscope_reset(pcb); $$ = $1; $$->bitexpr = $3; }
	;

enum_specifier:
		enum_definition enumerator_list '}'	{ dt_dscope_pop(pcb); dt_decl_enum_end(pcb, $1); $$ = $1; }
	|	DT_KEY_ENUM DT_TOK_IDENT		{ $$ = dt_decl_enum_ref(pcb, $2); }
	|	DT_KEY_ENUM DT_TOK_TNAME		{ $$ = dt_decl_enum_ref(pcb, $2); }
	;

enum_definition:
		DT_KEY_ENUM '{'			{ $$ = dt_decl_enum_begin(pcb, NULL); dt_dscope_push(pcb); }
	|	DT_KEY_ENUM DT_TOK_IDENT '{'	{ $$ = dt_decl_enum_begin(pcb, $2); dt_dscope_push(pcb); }
	|	DT_KEY_ENUM DT_TOK_TNAME '{'	{ $$ = dt_decl_enum_begin(pcb, $2); dt_dscope_push(pcb); }
	;

enumerator_list:
		enumerator
	|	enumerator_list DT_TOK_COMMA enumerator
	;

enumerator:
		DT_TOK_IDENT	{ dt_decl_enumerator(pcb, NULL, $1, NULL); }
	|	DT_TOK_IDENT DT_TOK_ASGN constant_expression { dt_decl_enumerator(pcb, NULL, $1, $3); }
	;

init_declarator:
		declarator { dt_dscope_reset(pcb); }
	;

declarator:
		direct_declarator
	|	pointer direct_declarator {
			dt_declarator_t *q = $1;
			while (q->inner != NULL)
				q = q->inner;
			q->inner = $2;
			$$ = $1;
		}
	;

direct_declarator:
		DT_TOK_IDENT { $$ = dt_dd_new(pcb, DT_DD_NAME); $$->name = $1; }
	|	DT_TOK_LPAR declarator DT_TOK_RPAR { $$ = $2; }
	|	direct_declarator declarator_suffix { $2->inner = $1; $$ = $2; }
	;

/* `[]', `[types]', `[dim]', `()', `(params)' after a declarator: a new outer level */
declarator_suffix:
		DT_TOK_LBRAC dscope_push DT_TOK_RBRAC { dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); }
	|	DT_TOK_LBRAC dscope_push parameter_type_list DT_TOK_RBRAC {
			dt_dscope_pop(pcb);
			$$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->params = $3; $$->tuple = true;
		}
	|	DT_TOK_LBRAC dscope_push constant_expression DT_TOK_RBRAC {
			dt_dscope_pop(pcb);
			$$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->dim = $3;
		}
	|	DT_TOK_LPAR dscope_push DT_TOK_RPAR { dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_FUNC); }
	|	DT_TOK_LPAR dscope_push parameter_type_list DT_TOK_RPAR {
			dt_dscope_pop(pcb);
			$$ = dt_dd_new(pcb, DT_DD_FUNC); $$->params = $3;
		}
	;

pointer:
		DT_TOK_MUL			{ dt_dscope_ptr(pcb); $$ = dt_dd_new(pcb, DT_DD_PTR); }
	|	DT_TOK_MUL type_qualifier_list	{ dt_dscope_ptr(pcb); $$ = dt_dd_new(pcb, DT_DD_PTR); }
	|	DT_TOK_MUL pointer		{ $$ = dt_dd_new(pcb, DT_DD_PTR); $$->inner = $2; }
	|	DT_TOK_MUL type_qualifier_list pointer { $$ = dt_dd_new(pcb, DT_DD_PTR); $$->inner = $3; }
	;

/* DTrace's dt_scope_push() of an array's brackets or a function's parameters */
dscope_push:
		%empty { dt_dscope_push(pcb); }
	;

type_qualifier_list:
		DT_KEY_CONST
	|	DT_KEY_VOLATILE
	|	DT_KEY_RESTRICT
	|	type_qualifier_list DT_KEY_CONST
	|	type_qualifier_list DT_KEY_VOLATILE
	|	type_qualifier_list DT_KEY_RESTRICT
	;

parameter_type_list:
		parameter_list
	|	parameter_list DT_TOK_COMMA DT_TOK_ELLIPSIS {
			dt_node_t *n = dt_node_new(pcb, DT_NODE_TYPE); n->type = NULL; n->op = DT_TOK_ELLIPSIS;
			$$ = dt_node_link($1, n);
		}
	|	DT_TOK_ELLIPSIS {
			$$ = dt_node_new(pcb, DT_NODE_TYPE); $$->type = NULL; $$->op = DT_TOK_ELLIPSIS;
		}
	;

parameter_list:
		parameter_declaration { $$ = $1; $<l_tail>$ = NULL; }
	|	parameter_list DT_TOK_COMMA parameter_declaration { $$ = dt_list_add($1, $<l_tail>1, $3, &$<l_tail>$); }
	;

parameter_declaration:
		parameter_declaration_specifiers declarator { dt_dscope_end(pcb); $$ = dt_decl_param(pcb, $1, $2); }
	|	parameter_declaration_specifiers { dt_dscope_end(pcb); $$ = dt_decl_param(pcb, $1, NULL); }
	|	parameter_declaration_specifiers abstract_declarator { dt_dscope_end(pcb); $$ = dt_decl_param(pcb, $1, $2); }
	;

type_name:
		specifier_qualifier_list { dt_dscope_end(pcb); $$ = dt_decl_typename(pcb, $1, NULL); }
	|	specifier_qualifier_list abstract_declarator { dt_dscope_end(pcb); $$ = dt_decl_typename(pcb, $1, $2); }
	;

abstract_declarator:
		pointer
	|	direct_abstract_declarator
	|	pointer direct_abstract_declarator { dt_declarator_t *q = $1; while (q->inner) q = q->inner; q->inner = $2; $$ = $1; }
	;

direct_abstract_declarator:
		DT_TOK_LPAR abstract_declarator DT_TOK_RPAR { $$ = $2; }
	|	DT_TOK_LBRAC dscope_push DT_TOK_RBRAC { dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); }
	|	DT_TOK_LBRAC dscope_push constant_expression DT_TOK_RBRAC {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->dim = $3;
		}
	|	DT_TOK_LBRAC dscope_push parameter_type_list DT_TOK_RBRAC {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->params = $3; $$->tuple = true;
		}
	|	direct_abstract_declarator DT_TOK_LBRAC dscope_push DT_TOK_RBRAC {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->inner = $1;
		}
	|	direct_abstract_declarator DT_TOK_LBRAC dscope_push parameter_type_list DT_TOK_RBRAC {
			dt_dscope_pop(pcb);
			$$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->inner = $1; $$->params = $4; $$->tuple = true;
		}
	|	direct_abstract_declarator DT_TOK_LBRAC dscope_push constant_expression DT_TOK_RBRAC {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_ARRAY); $$->inner = $1; $$->dim = $4;
		}
	|	DT_TOK_LPAR dscope_push DT_TOK_RPAR { dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_FUNC); }
	|	DT_TOK_LPAR dscope_push parameter_type_list DT_TOK_RPAR {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_FUNC); $$->params = $3;
		}
	|	direct_abstract_declarator DT_TOK_LPAR dscope_push DT_TOK_RPAR {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_FUNC); $$->inner = $1;
		}
	|	direct_abstract_declarator DT_TOK_LPAR dscope_push parameter_type_list DT_TOK_RPAR {
			dt_dscope_pop(pcb); $$ = dt_dd_new(pcb, DT_DD_FUNC); $$->inner = $1; $$->params = $4;
		}
	;

%%

static dt_node_t *
dt_int_node(dt_pcb_t *pcb, uint64_t v, int kind)
{
	dt_node_t *n = dt_node_int(pcb, v);
	/* kind indexes DTrace's list: int, unsigned int, long, unsigned long, long long, unsigned long long */
	switch (kind) {
	case 0: n->type = pcb->t_int; break;
	case 1: n->type = pcb->t_uint; break;
	case 2: n->type = pcb->t_long; break;
	case 3: n->type = pcb->t_ulong; break;
	case 4: n->type = pcb->t_llong; break;
	default: n->type = pcb->t_ullong; break;
	}
	if (kind % 2 == 0)
		n->flags |= DT_NF_SIGNED;
	else
		n->flags &= ~DT_NF_SIGNED;
	return n;
}

/*
 * Every pass over an expression (checking, code generation, inline and
 * translator expansion) recurses into its operands, so a tree too deep
 * would overflow the C stack: 1+1+...+1 or a[0][0]...[0] are left-recursive
 * and never fill the parser's own stack.  An operator's depth is one more
 * than its deepest operand's; past DT_EXPR_MAXDEPTH the program is refused.
 * (DTrace has no such limit; it overflows its stack instead.)
 */
#define DT_EXPR_MAXDEPTH 1000

/* the deepest of an operand and the nodes listed after it (keys, arguments) */
static int
dt_depth(const dt_node_t *n, int d)
{
	for (; n != NULL; n = n->list)
		if (n->depth > d)
			d = n->depth;
	return d;
}

static dt_node_t *
dt_nest(dt_pcb_t *pcb, dt_node_t *n)
{
	int d = dt_depth(n->left, 0);

	d = dt_depth(n->right, d);
	d = dt_depth(n->cond, d);
	d = dt_depth(n->args, d);
	n->depth = d + 1;
	if (n->depth > DT_EXPR_MAXDEPTH)
		dt_error(pcb, n->line, D_SYNTAX, "expression is nested too deeply (more than %d operators)",
			 DT_EXPR_MAXDEPTH);
	return n;
}

/*
 * Lists built by left recursion, without walking them on every append:
 * `head' (NULL when empty) whose last node is `tail' (NULL: not known yet,
 * as the first element's rule leaves it) gets `add' (a node, a list or
 * NULL) appended; *tailp is the new last node.
 */
static dt_node_t *
dt_list_add(dt_node_t *head, dt_node_t *tail, dt_node_t *add, dt_node_t **tailp)
{
	if (head != NULL && tail == NULL)
		for (tail = head; tail->list != NULL; tail = tail->list)
			continue;
	if (add == NULL) {
		*tailp = tail;
		return head;
	}
	if (head == NULL)
		head = add;
	else
		tail->list = add;
	for (tail = add; tail->list != NULL; tail = tail->list)
		continue;
	*tailp = tail;
	return head;
}

/* A type keyword into a declaration's specifiers: a base type or a modifier. */
static void
dt_ds_keyword(dt_pcb_t *pcb, dt_declspec_t *ds, int kw)
{
	switch (kw) {
	case DT_KEY_SHORT: dt_ds_mod(pcb, ds, DT_DS_SHORT); break;
	case DT_KEY_LONG: dt_ds_mod(pcb, ds, DT_DS_LONG); break;
	case DT_KEY_SIGNED: dt_ds_mod(pcb, ds, DT_DS_SIGNED); break;
	case DT_KEY_UNSIGNED: dt_ds_mod(pcb, ds, DT_DS_UNSIGNED); break;
	case DT_KEY_USERLAND: dt_ds_mod(pcb, ds, DT_DS_USER); break;
	default: dt_ds_base(pcb, ds, kw); break;
	}
}

/*
 * The parser's own errors say where, as DTrace's do: "syntax error near
 * "}"", "... near end of input" (the lexer's errors carry their own text).
 */
void
dt_yyerror(dt_pcb_t *pcb, const char *msg)
{
	const char *t = dt_lex_text(pcb);
	size_t n = strcspn(t, "\n");

	pcb->lineno = dt_lex_lineno(pcb);
	/* the parser's stack (YYMAXDEPTH entries) is full: constructs nested thousands deep */
	if (strcmp(msg, "memory exhausted") == 0)
		dt_error(pcb, 0, D_SYNTAX, "program is nested too deeply near \"%.*s\"", (int)n, t);
	if (*t == '\0')
		dt_error(pcb, 0, D_SYNTAX, "syntax error near end of input");
	if (*t == '\n')
		dt_error(pcb, 0, D_SYNTAX, "syntax error near end of line");
	dt_error(pcb, 0, D_SYNTAX, "syntax error near \"%.*s\"", (int)n, t);
}
