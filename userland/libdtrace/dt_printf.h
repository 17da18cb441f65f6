/*
 * dt_printf.h: parsed printf()/printa() formats.
 *
 * A format string is cut into argument descriptors: each holds the literal
 * text before a conversion and the conversion itself (flags, width,
 * precision, the conversion's entry in the dictionary).  A trailing
 * descriptor with no conversion holds text after the last one.  The
 * dictionary is DTrace's: the C conversions with their size prefixes plus
 * %a %A %C %k %S %T %Y and %@ for aggregation values.
 */
#ifndef DT_PRINTF_H
#define DT_PRINTF_H

#include "dt_impl.h"

/* How a conversion turns a record into text. */
typedef enum dt_pfkind {
	DT_PF_SINT,    /* signed integer */
	DT_PF_UINT,    /* unsigned integer */
	DT_PF_DINT,    /* %d %i: as DTrace formats them after compilation */
	DT_PF_FP,      /* floating point */
	DT_PF_ADDR,    /* %a: kernel-side address as module`symbol+offset */
	DT_PF_UADDR,   /* %A: user address */
	DT_PF_STACK,   /* %k: a stack()/ustack() record */
	DT_PF_TIME,    /* %Y: walltimestamp as 1973 Dec  3 17:20:00 */
	DT_PF_TIME822, /* %T: RFC 822 time */
	DT_PF_CSTR,    /* %s */
	DT_PF_ESTR,    /* %S: string with C escapes */
	DT_PF_ECHR,    /* %C: character with C escapes */
	DT_PF_WSTR,    /* %ls %ws */
	DT_PF_INET,    /* %I: an IPv4/IPv6 address string, as its host name when known */
	DT_PF_PORT,    /* %P: a uint16_t port number, as its service name when known */
	DT_PF_PCT      /* %% */
} dt_pfkind_t;

typedef struct dt_pfconv {
	const char *pfc_name; /* as written after the flags: "d", "llx", "S" */
	const char *pfc_ofmt; /* C conversion letter(s) it prints with */
	dt_pfkind_t pfc_kind;
} dt_pfconv_t;

#define DT_PFCONV_ALT 0x0001      /* '#' */
#define DT_PFCONV_ZPAD 0x0002     /* '0' */
#define DT_PFCONV_LEFT 0x0004     /* '-' */
#define DT_PFCONV_SPOS 0x0008     /* '+' */
#define DT_PFCONV_DYNWIDTH 0x0010 /* '*' width */
#define DT_PFCONV_DYNPREC 0x0020  /* '.*' precision */
#define DT_PFCONV_GROUP 0x0040    /* '\'' */
#define DT_PFCONV_SPACE 0x0080    /* ' ' */
#define DT_PFCONV_AGG 0x0100      /* '@': the aggregation's value */

typedef struct dt_pfargd {
	const char *pfd_prefix; /* literal text before the conversion */
	size_t pfd_preflen;
	const dt_pfconv_t *pfd_conv; /* NULL: only a prefix */
	unsigned pfd_flags;
	int pfd_width;
	int pfd_dynwidth; /* width taken from a record this time */
	int pfd_prec;
	const dtrace_recdesc_t *pfd_rec; /* record being formatted */
	struct dt_pfargd *pfd_next;
} dt_pfargd_t;

struct dt_pfargv {
	dtrace_hdl_t *pfv_dtp;
	char *pfv_format;
	dt_pfargd_t *pfv_argv;
	unsigned pfv_argc;
	unsigned pfv_flags; /* DT_PRINTF_AGGREGATION */
};

#endif /* DT_PRINTF_H */
