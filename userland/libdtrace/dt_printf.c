/*
 * dt_printf.c: DTrace's printf engine.
 *
 * printf(), printa(), system() and freopen() records carry a format id; the
 * format string (as the compiler wrote it into the DOF) is parsed once into
 * argument descriptors (dt_printf_create) and then applied to each firing's
 * records (dt_printf_format).  Each conversion consumes one record, or two
 * or three with '*' width and precision; %@ consumes the aggregation value
 * instead.  The text comes out through libc's printf family with a C format
 * rebuilt from the descriptor, so flags, widths and precisions behave
 * exactly as C's, with DTrace's own rules on top:
 *   - the integer's size comes from the record, not from the format;
 *   - %d and %i of 8- and 16-bit values print the value zero-extended, and
 *     a precision or width of 0 is the same as none, as in DTrace;
 *   - %p prints hexadecimal digits without 0x; %? sets the pointer width;
 *   - %a %A %k %S %C %T %Y %I %P are DTrace's extensions.
 * Output goes to a FILE, or into the handle's sprintf buffer while
 * system() and freopen() build their argument.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "dt_compile.h"
#include "dt_printf.h"

/* The conversion dictionary (DTrace's, by name). */
static const dt_pfconv_t dt_conversions[] = {
	{"a", "s", DT_PF_ADDR},     {"A", "s", DT_PF_UADDR},    {"c", "c", DT_PF_SINT},
	{"C", "s", DT_PF_ECHR},     {"d", "d", DT_PF_DINT},     {"e", "e", DT_PF_FP},
	{"E", "E", DT_PF_FP},       {"f", "f", DT_PF_FP},       {"g", "g", DT_PF_FP},
	{"G", "G", DT_PF_FP},       {"hd", "d", DT_PF_SINT},    {"hi", "i", DT_PF_SINT},
	{"ho", "o", DT_PF_UINT},    {"hu", "u", DT_PF_UINT},    {"hx", "x", DT_PF_UINT},
	{"hX", "X", DT_PF_UINT},    {"i", "i", DT_PF_SINT},     {"I", "s", DT_PF_INET},
	{"k", "s", DT_PF_STACK},
	{"lc", "lc", DT_PF_SINT},   {"ld", "d", DT_PF_SINT},    {"li", "i", DT_PF_SINT},
	{"lo", "o", DT_PF_UINT},    {"lu", "u", DT_PF_UINT},    {"ls", "ls", DT_PF_WSTR},
	{"lx", "x", DT_PF_UINT},    {"lX", "X", DT_PF_UINT},    {"lld", "d", DT_PF_SINT},
	{"lli", "i", DT_PF_SINT},   {"llo", "o", DT_PF_UINT},   {"llu", "u", DT_PF_UINT},
	{"llx", "x", DT_PF_UINT},   {"llX", "X", DT_PF_UINT},   {"Le", "e", DT_PF_FP},
	{"LE", "E", DT_PF_FP},      {"Lf", "f", DT_PF_FP},      {"Lg", "g", DT_PF_FP},
	{"LG", "G", DT_PF_FP},      {"o", "o", DT_PF_UINT},     {"p", "x", DT_PF_UINT},
	{"P", "s", DT_PF_PORT},
	{"s", "s", DT_PF_CSTR},     {"S", "s", DT_PF_ESTR},     {"T", "s", DT_PF_TIME822},
	{"u", "u", DT_PF_UINT},     {"wc", "lc", DT_PF_SINT},   {"ws", "ls", DT_PF_WSTR},
	{"x", "x", DT_PF_UINT},     {"X", "X", DT_PF_UINT},     {"Y", "s", DT_PF_TIME},
	{"%", "%", DT_PF_PCT},
};

static const dt_pfconv_t *
dt_pfdict_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(dt_conversions) / sizeof(dt_conversions[0]); i++) {
		if (strcmp(dt_conversions[i].pfc_name, name) == 0)
			return &dt_conversions[i];
	}
	return NULL;
}

/* --- Output -------------------------------------------------------------- */

int
dt_vprintf(dtrace_hdl_t *dtp, FILE *fp, const char *format, va_list ap)
{
	int n;

	if (dtp->dt_sprintf_buflen != 0) {
		size_t avail = dtp->dt_sprintf_buflen - dtp->dt_sprintf_len;

		n = vsnprintf(dtp->dt_sprintf_buf + dtp->dt_sprintf_len, avail, format, ap);
		if (n < 0)
			return dt_set_errno(dtp, errno);
		/* Like DTrace, a string longer than strsize is cut short. */
		dtp->dt_sprintf_len += (size_t)n < avail ? (size_t)n : avail - 1;
		return 0;
	}
	if (fp == NULL)
		return 0;
	if ((n = vfprintf(fp, format, ap)) < 0)
		return dt_set_errno(dtp, errno);
	return 0;
}

int
dt_printf(dtrace_hdl_t *dtp, FILE *fp, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = dt_vprintf(dtp, fp, format, ap);
	va_end(ap);
	return n;
}

int
dt_write(dtrace_hdl_t *dtp, FILE *fp, const char *s, size_t n)
{
	if (dtp->dt_sprintf_buflen != 0)
		return dt_printf(dtp, fp, "%.*s", (int)n, s);
	if (fp == NULL || n == 0)
		return 0;
	if (fwrite(s, 1, n, fp) != n)
		return dt_set_errno(dtp, errno);
	return 0;
}

/* --- Parsing ------------------------------------------------------------- */

void
dt_printf_destroy(dt_pfargv_t *pfv)
{
	dt_pfargd_t *pfd, *next;

	if (pfv == NULL)
		return;
	for (pfd = pfv->pfv_argv; pfd != NULL; pfd = next) {
		next = pfd->pfd_next;
		free(pfd);
	}
	free(pfv->pfv_format);
	free(pfv);
}

static dt_pfargd_t *
dt_pfargd_append(dt_pfargv_t *pfv, dt_pfargd_t **lastp)
{
	dt_pfargd_t *pfd = calloc(1, sizeof(*pfd));

	if (pfd == NULL)
		return NULL;
	if (*lastp != NULL)
		(*lastp)->pfd_next = pfd;
	else
		pfv->pfv_argv = pfd;
	*lastp = pfd;
	pfv->pfv_argc++;
	return pfd;
}

dt_pfargv_t *
dt_printf_create(dtrace_hdl_t *dtp, const char *s, int flags)
{
	dt_pfargd_t *pfd, *last = NULL;
	dt_pfargv_t *pfv;
	const char *p, *q;

	if ((pfv = calloc(1, sizeof(*pfv))) == NULL || (pfv->pfv_format = strdup(s)) == NULL) {
		free(pfv);
		(void)dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	pfv->pfv_dtp = dtp;
	pfv->pfv_flags = (unsigned)flags;

	for (q = pfv->pfv_format; (p = strchr(q, '%')) != NULL; q = *p ? p + 1 : p) {
		char name[8];
		size_t namelen = 0;
		int digits = 0, dot = 0, n;
		char c;

		if ((pfd = dt_pfargd_append(pfv, &last)) == NULL)
			goto nomem;
		if (p > q) {
			pfd->pfd_preflen = (size_t)(p - q);
			pfd->pfd_prefix = q;
		}

		for (;;) {
			c = *++p;
			if (c >= '0' && c <= '9') {
				if (dot == 0 && digits == 0 && c == '0') {
					pfd->pfd_flags |= DT_PFCONV_ZPAD;
					pfd->pfd_flags &= ~DT_PFCONV_LEFT;
					continue;
				}
				for (n = 0; isdigit((unsigned char)c); c = *++p)
					n = n * 10 + c - '0';
				if (dot)
					pfd->pfd_prec = n;
				else
					pfd->pfd_width = n;
				p--;
				digits++;
				continue;
			}
			switch (c) {
			case '#':
				pfd->pfd_flags |= DT_PFCONV_ALT;
				continue;
			case '*':
				n = dot ? DT_PFCONV_DYNPREC : DT_PFCONV_DYNWIDTH;
				if (pfd->pfd_flags & (unsigned)n)
					goto bad;
				pfd->pfd_flags |= (unsigned)n;
				continue;
			case '+':
				pfd->pfd_flags |= DT_PFCONV_SPOS;
				continue;
			case '-':
				pfd->pfd_flags |= DT_PFCONV_LEFT;
				pfd->pfd_flags &= ~DT_PFCONV_ZPAD;
				continue;
			case '.':
				if (dot++ != 0)
					goto bad;
				digits = 0;
				continue;
			case '?':
				/* pointer width of the traced data model */
				pfd->pfd_width = sizeof(void *) == 8 ? 16 : 8;
				continue;
			case '@':
				pfd->pfd_flags |= DT_PFCONV_AGG;
				continue;
			case '\'':
				pfd->pfd_flags |= DT_PFCONV_GROUP;
				continue;
			case ' ':
				pfd->pfd_flags |= DT_PFCONV_SPACE;
				continue;
			case '$':
				goto bad; /* positional arguments are not supported */
			case '%':
				if (p[-1] == '%')
					break; /* %% itself */
				goto bad;  /* %% combined with flags */
			case '\0':
				goto bad;
			case 'h':
			case 'l':
			case 'L':
			case 'w':
				if (namelen < sizeof(name) - 2)
					name[namelen++] = c;
				continue;
			default:
				break;
			}
			name[namelen++] = c;
			name[namelen] = '\0';
			break;
		}

		if ((pfd->pfd_conv = dt_pfdict_lookup(name)) == NULL)
			goto bad;
	}

	if (*q != '\0' || pfv->pfv_format[0] == '\0') {
		if ((pfd = dt_pfargd_append(pfv, &last)) == NULL)
			goto nomem;
		pfd->pfd_prefix = q;
		pfd->pfd_preflen = strlen(q);
	}
	return pfv;

bad:
	dt_printf_destroy(pfv);
	(void)dt_set_errno(dtp, EDT_BADCONV);
	return NULL;
nomem:
	dt_printf_destroy(pfv);
	(void)dt_set_errno(dtp, EDT_NOMEM);
	return NULL;
}

/* --- Conversions ---------------------------------------------------------- */

/* A C format for one conversion: '%', flags, width, precision, then `conv'. */
static void
dt_pfmt(char *buf, size_t len, const dt_pfargd_t *pfd, int width, int prec, const char *conv)
{
	char *f = buf;
	char *end = buf + len;

	*f++ = '%';
	if (pfd->pfd_flags & DT_PFCONV_ALT)
		*f++ = '#';
	if (pfd->pfd_flags & DT_PFCONV_ZPAD)
		*f++ = '0';
	if (pfd->pfd_flags & DT_PFCONV_LEFT)
		*f++ = '-';
	if (pfd->pfd_flags & DT_PFCONV_SPOS)
		*f++ = '+';
	if (pfd->pfd_flags & DT_PFCONV_GROUP)
		*f++ = '\'';
	if (pfd->pfd_flags & DT_PFCONV_SPACE)
		*f++ = ' ';
	if (width != 0)
		f += snprintf(f, (size_t)(end - f), "%d", width);
	if (prec != 0)
		f += snprintf(f, (size_t)(end - f), ".%d", prec);
	(void)snprintf(f, (size_t)(end - f), "%s", conv);
}

static int
dt_getint(dtrace_hdl_t *dtp, const char *addr, size_t size, int64_t *vp)
{
	uint64_t u;

	if (dt_rec_int(addr, size, vp, &u) != 0)
		return dt_set_errno(dtp, EDT_DMISMATCH);
	return 0;
}

static int
dt_getuint(dtrace_hdl_t *dtp, const char *addr, size_t size, uint64_t *vp)
{
	int64_t v;

	if (dt_rec_int(addr, size, &v, vp) != 0)
		return dt_set_errno(dtp, EDT_DMISMATCH);
	return 0;
}

/* The C length modifier for an integer conversion of a `size'-byte value. */
static const char *
dt_intmod(const dt_pfconv_t *pfc, size_t size)
{
	if (pfc->pfc_name[0] == 'h')
		return "h";
	if (strcmp(pfc->pfc_ofmt, "lc") == 0)
		return "";
	return size == sizeof(uint64_t) ? "ll" : "";
}

static int
dt_pf_integer(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	      const char *addr, size_t size, uint64_t normal)
{
	const dt_pfconv_t *pfc = pfd->pfd_conv;
	dt_pfkind_t kind = pfc->pfc_kind;
	char conv[8], format[64];

	(void)snprintf(conv, sizeof(conv), "%s%s", dt_intmod(pfc, size), pfc->pfc_ofmt);
	dt_pfmt(format, sizeof(format), pfd, width, prec, conv);

	/*
	 * DTrace's compiler hands the consumer %d as %i (signed argument) or
	 * %u (unsigned); a %d that still arrives here (a format DTrace's
	 * compiler did not settle) is printed from the value's unsigned bytes,
	 * which for 8- and 16-bit values means zero-extended.
	 */
	if (kind == DT_PF_DINT)
		kind = size == sizeof(uint64_t) ? DT_PF_SINT : DT_PF_UINT;

	if (kind == DT_PF_SINT) {
		int64_t v;

		if (dt_getint(dtp, addr, size, &v) != 0)
			return -1;
		if (size == sizeof(uint64_t))
			return dt_printf(dtp, fp, format, (long long)dt_sdiv64(v, (int64_t)normal));
		return dt_printf(dtp, fp, format, (int)dt_sdiv64((int32_t)v, (int32_t)normal));
	} else {
		uint64_t v;

		if (dt_getuint(dtp, addr, size, &v) != 0)
			return -1;
		if (size == sizeof(uint64_t))
			return dt_printf(dtp, fp, format, (unsigned long long)(v / normal));
		return dt_printf(dtp, fp, format, (unsigned)((uint32_t)v / (uint32_t)normal));
	}
}

static int
dt_pf_fp(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	 const char *addr, size_t size, uint64_t normal)
{
	char conv[8], format[64];

	if (size == sizeof(long double) && size != sizeof(double)) {
		(void)snprintf(conv, sizeof(conv), "L%s", pfd->pfd_conv->pfc_ofmt);
		dt_pfmt(format, sizeof(format), pfd, width, prec, conv);
		return dt_printf(dtp, fp, format, *(const long double *)addr / (long double)normal);
	}
	dt_pfmt(format, sizeof(format), pfd, width, prec, pfd->pfd_conv->pfc_ofmt);
	switch (size) {
	case sizeof(float):
		return dt_printf(dtp, fp, format, (double)*(const float *)addr / (double)normal);
	case sizeof(double):
		return dt_printf(dtp, fp, format, *(const double *)addr / (double)normal);
	default:
		return dt_set_errno(dtp, EDT_DMISMATCH);
	}
}

static int
dt_pf_str(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	  const char *s)
{
	char format[64];

	dt_pfmt(format, sizeof(format), pfd, width, prec, "s");
	return dt_printf(dtp, fp, format, s);
}

static int
dt_pf_cstr(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	char *s = dt_recstr(dtp, addr, size);
	int rval;

	if (s == NULL)
		return -1;
	rval = dt_pf_str(dtp, fp, pfd, width, prec, s);
	free(s);
	return rval;
}

static int
dt_pf_estr(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	char *s = dt_strchr2esc(addr, size);
	int rval;

	if (s == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	rval = dt_pf_str(dtp, fp, pfd, width, prec, s);
	free(s);
	return rval;
}

static int
dt_pf_wstr(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	/* room for a whole terminating wchar_t after a partial last one */
	wchar_t *ws = dt_calloc(dtp, size + 2 * sizeof(wchar_t));
	char format[64];
	int rval;

	if (ws == NULL)
		return -1;
	memcpy(ws, addr, size);
	dt_pfmt(format, sizeof(format), pfd, width, prec, "ls");
	rval = dt_printf(dtp, fp, format, ws);
	free(ws);
	return rval;
}

/*
 * %I: a dotted IPv4 or an IPv6 address string prints as the name the host
 * database gives it; anything else (or an unknown address) as written.
 */
static int
dt_pf_inet(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	char *s = dt_recstr(dtp, addr, size), host[NI_MAXHOST];
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len = 0;
	int rval;

	if (s == NULL)
		return -1;
	memset(&ss, 0, sizeof(ss));
	if (strchr(s, ':') == NULL && inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		len = sizeof(*sin6);
	}
	if (len != 0 && getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), NULL, 0,
	                            NI_NAMEREQD) == 0)
		rval = dt_pf_str(dtp, fp, pfd, width, prec, host);
	else
		rval = dt_pf_str(dtp, fp, pfd, width, prec, s);
	free(s);
	return rval;
}

/* %P: a uint16_t port number, as its service name if it has one. */
static int
dt_pf_port(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	struct servent se, *sp = NULL;
	uint16_t port;
	char buf[1024];

	if (size != sizeof(uint16_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);
	memcpy(&port, addr, sizeof(port));
	/* the service database is asked in network order, as DTrace asks it */
	if (getservbyport_r((int)htons(port), NULL, &se, buf, sizeof(buf), &sp) == 0 && sp != NULL)
		return dt_pf_str(dtp, fp, pfd, width, prec, sp->s_name);
	(void)snprintf(buf, sizeof(buf), "%d", port);
	return dt_pf_str(dtp, fp, pfd, width, prec, buf);
}

static int
dt_pf_time(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size, int rfc822)
{
	uint64_t ns;
	time_t sec;
	struct tm tm;
	char buf[64];

	if (size != sizeof(uint64_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);
	ns = *(const uint64_t *)addr;
	sec = (time_t)(ns / (uint64_t)DTRACE_NANOSEC);
	if (localtime_r(&sec, &tm) == NULL)
		return dt_set_errno(dtp, errno);
	/* %Y is ctime()'s text with the year moved to the front. */
	(void)strftime(buf, sizeof(buf), rfc822 ? "%a, %d %b %G %T %Z" : "%Y %b %e %T", &tm);
	return dt_pf_str(dtp, fp, pfd, width, prec, buf);
}

static int
dt_pf_addr(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	   const char *addr, size_t size)
{
	char s[1024];
	uint64_t val;

	if (size != sizeof(uint32_t) && size != sizeof(uint64_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);
	(void)dt_getuint(dtp, addr, size, &val);
	(void)dtrace_addr2str(dtp, val, s, sizeof(s));
	return dt_pf_str(dtp, fp, pfd, width, prec, s);
}

static int
dt_pf_uaddr(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	    const char *addr, size_t size)
{
	char s[1024];
	uint64_t val, pid = 0;

	switch (size) {
	case sizeof(uint32_t):
	case sizeof(uint64_t):
		(void)dt_getuint(dtp, addr, size, &val);
		break;
	case 2 * sizeof(uint64_t):
		pid = ((const uint64_t *)addr)[0];
		val = ((const uint64_t *)addr)[1];
		break;
	default:
		return dt_set_errno(dtp, EDT_DMISMATCH);
	}
	/* a bare address (%A of an integer, allowed with -p/-c) is one in $target */
	if (pid == 0)
		pid = (uint64_t)dtp->dt_target;
	(void)dtrace_uaddr2str(dtp, (int)pid, val, s, sizeof(s));
	return dt_pf_str(dtp, fp, pfd, width, prec, s);
}

/*
 * %k: a stack record, one frame per line.  A left-justified width becomes
 * the frames' indentation; otherwise each frame is padded to the width.
 */
static int
dt_pf_stack(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	    const char *addr, size_t size)
{
	dtrace_optval_t saved = dtp->dt_options[DTRACEOPT_STACKINDENT];
	const dtrace_recdesc_t *rec = pfd->pfd_rec;
	char format[64];
	int indent, err;

	(void)size;
	if (pfd->pfd_dynwidth < 0)
		indent = -pfd->pfd_dynwidth;
	else if (pfd->pfd_flags & DT_PFCONV_LEFT)
		indent = pfd->pfd_dynwidth ? pfd->pfd_dynwidth : pfd->pfd_width;
	else
		indent = 0;
	/* as DTrace: a left-justified width indents instead of padding */
	dt_pfmt(format, sizeof(format), pfd, (pfd->pfd_flags & DT_PFCONV_LEFT) ? 0 : width, prec,
	        "s");
	dtp->dt_options[DTRACEOPT_STACKINDENT] = indent;

	switch (rec->dtrd_action) {
	case DTRACEACT_USTACK:
	case DTRACEACT_JSTACK:
		err = dt_print_ustack(dtp, fp, format, addr, rec->dtrd_arg);
		break;
	case DTRACEACT_STACK:
		err = rec->dtrd_arg == 0 ? dt_set_errno(dtp, EDT_DMISMATCH)
		                         : dt_print_stack(dtp, fp, format, addr, (int)rec->dtrd_arg,
		                                          (int)(rec->dtrd_size / rec->dtrd_arg));
		break;
	default:
		err = dt_set_errno(dtp, EDT_DMISMATCH);
	}
	dtp->dt_options[DTRACEOPT_STACKINDENT] = saved;
	return err;
}

/*
 * One record under its conversion: the conversion's own formatting of the
 * record's bytes (for %@, of count(), sum(), min() and max() values too, as
 * DTrace's dt_printf_format() hands them to the conversion's pfc_print).
 */
static int
dt_pf_value(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	    const char *addr, size_t size, uint64_t normal)
{
	const dt_pfconv_t *pfc = pfd->pfd_conv;

	switch (pfc->pfc_kind) {
	case DT_PF_SINT:
	case DT_PF_UINT:
	case DT_PF_DINT:
		return dt_pf_integer(dtp, fp, pfd, width, prec, addr, size, normal);
	case DT_PF_FP:
		return dt_pf_fp(dtp, fp, pfd, width, prec, addr, size, normal);
	case DT_PF_ADDR:
		return dt_pf_addr(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_UADDR:
		return dt_pf_uaddr(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_STACK:
		return dt_pf_stack(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_TIME:
	case DT_PF_TIME822:
		return dt_pf_time(dtp, fp, pfd, width, prec, addr, size,
		                  pfc->pfc_kind == DT_PF_TIME822);
	case DT_PF_CSTR:
		return dt_pf_cstr(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_ESTR:
		return dt_pf_estr(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_INET:
		return dt_pf_inet(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_PORT:
		return dt_pf_port(dtp, fp, pfd, width, prec, addr, size);
	case DT_PF_ECHR: {
		int64_t v;
		char c;

		if (size > sizeof(int32_t) || dt_getint(dtp, addr, size, &v) != 0)
			return dt_set_errno(dtp, EDT_DMISMATCH);
		c = (char)v;
		return dt_pf_estr(dtp, fp, pfd, width, prec, &c, 1);
	}
	case DT_PF_WSTR:
		return dt_pf_wstr(dtp, fp, pfd, width, prec, addr, size);
	default:
		return dt_set_errno(dtp, EDT_BADCONV);
	}
}

/* An aggregation value under %@, by aggregating function. */
static int
dt_pf_aggval(dtrace_hdl_t *dtp, FILE *fp, const dt_pfargd_t *pfd, int width, int prec,
	     const dtrace_recdesc_t *rec, const char *addr, size_t size, uint64_t normal)
{
	const dt_pfconv_t *pfc = pfd->pfd_conv;
	const int64_t *data = (const int64_t *)addr;
	int64_t v;

	switch (rec->dtrd_action) {
	case DTRACEAGG_QUANTIZE:
	case DTRACEAGG_LQUANTIZE:
	case DTRACEAGG_LLQUANTIZE:
		return dt_print_distribution(dtp, fp, rec->dtrd_action, addr, size, normal);
	case DTRACEAGG_AVG:
		if (size != 2 * sizeof(int64_t))
			return dt_set_errno(dtp, EDT_DMISMATCH);
		v = dt_sdiv64(dt_sdiv64(data[1], (int64_t)normal), data[0]);
		break;
	case DTRACEAGG_STDDEV:
		if (size != 4 * sizeof(int64_t))
			return dt_set_errno(dtp, EDT_DMISMATCH);
		v = data[0] != 0 ? (int64_t)dt_stddev((const uint64_t *)addr, normal) : 0;
		break;
	default:
		return dt_pf_value(dtp, fp, pfd, width, prec, addr, size, normal);
	}
	/* avg() and stddev() have been reduced to one 64-bit value */
	if (pfc->pfc_kind != DT_PF_SINT && pfc->pfc_kind != DT_PF_UINT &&
	    pfc->pfc_kind != DT_PF_DINT)
		return dt_set_errno(dtp, EDT_DMISMATCH);
	return dt_pf_integer(dtp, fp, pfd, width, prec, (const char *)&v, sizeof(v), 1);
}

/* Read the int a '*' takes from the next record. */
static int
dt_printf_getint(dtrace_hdl_t *dtp, const dtrace_recdesc_t *recp, unsigned nrecs, const char *buf,
		 size_t len, int *ip)
{
	const char *addr;
	int64_t v;

	if (nrecs == 0)
		return dt_set_errno(dtp, EDT_DMISMATCH);
	addr = buf + recp->dtrd_offset;
	if (recp->dtrd_offset + recp->dtrd_size > len)
		return dt_set_errno(dtp, EDT_DOFFSET);
	if (dt_getint(dtp, addr, recp->dtrd_size, &v) != 0)
		return -1;
	*ip = (int)v;
	return 0;
}

/*
 * Format records recs[0..nrecs) of buf[0..len) with pfv.  For printa(),
 * aggsdata[0] is the representative tuple and the %@ conversions take the
 * values of aggsdata[1..] in turn (aggsdata[0] when there is only one);
 * the last record, the value, is not a key.  Returns the number of records
 * consumed, or -1.
 */
int
dt_printf_format(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_recdesc_t *recs,
		 unsigned nrecs, const void *vbuf, size_t len, const dtrace_aggdata_t **aggsdata,
		 int naggvars)
{
	const char *buf = vbuf;
	const dtrace_recdesc_t *recp = recs;
	dt_pfargd_t *pfd;
	int curagg = 0;
	unsigned i;

	if (pfv->pfv_flags & DT_PRINTF_AGGREGATION) {
		if (aggsdata == NULL || naggvars <= 0 || nrecs == 0)
			return dt_set_errno(dtp, EDT_DMISMATCH);
		curagg = naggvars > 1 ? 1 : 0;
		nrecs--;
	}

	for (i = 0, pfd = pfv->pfv_argv; pfd != NULL; i++, pfd = pfd->pfd_next) {
		const dt_pfconv_t *pfc = pfd->pfd_conv;
		int width = pfd->pfd_width, prec = pfd->pfd_prec;
		const dtrace_recdesc_t *rec;
		const char *addr, *limit;
		uint64_t normal;
		size_t size;
		int rval;

		if (pfd->pfd_preflen != 0 &&
		    dt_write(dtp, fp, pfd->pfd_prefix, pfd->pfd_preflen) != 0)
			return -1;

		if (pfc == NULL) {
			if (pfv->pfv_argc == 1)
				return nrecs != 0;
			continue;
		}
		if (pfc->pfc_kind == DT_PF_PCT) {
			if (dt_write(dtp, fp, "%", 1) != 0)
				return -1;
			continue;
		}

		if (pfd->pfd_flags & DT_PFCONV_DYNWIDTH) {
			if (dt_printf_getint(dtp, recp++, nrecs--, buf, len, &width) != 0)
				return -1;
			pfd->pfd_dynwidth = width;
		} else {
			pfd->pfd_dynwidth = 0;
		}
		if ((pfd->pfd_flags & DT_PFCONV_DYNPREC) &&
		    dt_printf_getint(dtp, recp++, nrecs--, buf, len, &prec) != 0)
			return -1;

		if (pfd->pfd_flags & DT_PFCONV_AGG) {
			const dtrace_aggdata_t *aggdata;
			const dtrace_aggdesc_t *agg;

			if (aggsdata == NULL)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			aggdata = aggsdata[curagg];
			agg = aggdata->dtada_desc;
			/* %@ past the last aggregation repeats the last one */
			if (curagg < naggvars - 1)
				curagg++;
			rec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
			addr = aggdata->dtada_data + rec->dtrd_offset;
			limit = aggdata->dtada_data + aggdata->dtada_size;
			normal = aggdata->dtada_normal;
		} else {
			if (nrecs == 0)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			rec = recp++;
			nrecs--;
			addr = buf + rec->dtrd_offset;
			limit = buf + len;
			normal = 1;
		}
		size = rec->dtrd_size;
		if (addr + size > limit)
			return dt_set_errno(dtp, EDT_DOFFSET);
		if (rec->dtrd_alignment > 1 &&
		    ((uintptr_t)addr & (uintptr_t)(rec->dtrd_alignment - 1)) != 0)
			return dt_set_errno(dtp, EDT_DALIGN);
		pfd->pfd_rec = rec;

		if (pfd->pfd_flags & DT_PFCONV_AGG) {
			rval = dt_pf_aggval(dtp, fp, pfd, width, prec, rec, addr, size, normal);
		} else if (rec->dtrd_action == DTRACEACT_MOD || rec->dtrd_action == DTRACEACT_UMOD) {
			char format[64];

			dt_pfmt(format, sizeof(format), pfd, width, prec, "s");
			rval = rec->dtrd_action == DTRACEACT_MOD
			           ? dt_print_mod(dtp, fp, format, addr)
			           : dt_print_umod(dtp, fp, format, addr);
		} else {
			rval = dt_pf_value(dtp, fp, pfd, width, prec, addr, size, normal);
		}
		if (rval != 0)
			return -1;
	}
	return (int)(recp - recs);
}

int
dtrace_fprintf(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
	       const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len)
{
	(void)data;
	return dt_printf_format(dtp, fp, pfv, recs, nrecs, buf, len, NULL, 0);
}

/* printa() with a format: the walk callbacks and their state. */
typedef struct dt_pfwalk {
	dt_pfargv_t *pfw_argv;
	FILE *pfw_fp;
	dtrace_aggvarid_t pfw_aid;
	int pfw_err;
} dt_pfwalk_t;

static int
dt_fprinta(const dtrace_aggdata_t *adp, void *arg)
{
	const dtrace_aggdesc_t *agg = adp->dtada_desc;
	dt_pfwalk_t *pfw = arg;
	dtrace_hdl_t *dtp = pfw->pfw_argv->pfv_dtp;
	int64_t id;

	if (agg->dtagd_nrecs < 1 || agg->dtagd_rec[0].dtrd_size != sizeof(dtrace_aggvarid_t))
		return DTRACE_AGGWALK_NEXT;
	id = *(const int64_t *)(adp->dtada_data + agg->dtagd_rec[0].dtrd_offset);
	if (id != pfw->pfw_aid)
		return DTRACE_AGGWALK_NEXT;
	if (dt_printf_format(dtp, pfw->pfw_fp, pfw->pfw_argv, &agg->dtagd_rec[1],
	                     (unsigned)agg->dtagd_nrecs - 1, adp->dtada_data, adp->dtada_size, &adp,
	                     1) == -1) {
		pfw->pfw_err = dtp->dt_errno;
		return DTRACE_AGGWALK_ERROR;
	}
	((dtrace_aggdesc_t *)agg)->dtagd_flags |= DTRACE_AGD_PRINTED;
	return DTRACE_AGGWALK_NEXT;
}

static int
dt_fprintas(const dtrace_aggdata_t **aggsdata, int naggvars, void *arg)
{
	const dtrace_aggdata_t *aggdata = aggsdata[0];
	const dtrace_aggdesc_t *agg = aggdata->dtada_desc;
	dt_pfwalk_t *pfw = arg;
	dtrace_hdl_t *dtp = pfw->pfw_argv->pfv_dtp;
	int i;

	if (dt_printf_format(dtp, pfw->pfw_fp, pfw->pfw_argv, &agg->dtagd_rec[1],
	                     (unsigned)agg->dtagd_nrecs - 1, aggdata->dtada_data,
	                     aggdata->dtada_size, aggsdata, naggvars) == -1) {
		pfw->pfw_err = dtp->dt_errno;
		return -1;
	}
	for (i = 1; i < naggvars; i++)
		((dtrace_aggdesc_t *)aggsdata[i]->dtada_desc)->dtagd_flags |= DTRACE_AGD_PRINTED;
	return 0;
}

int
dtrace_fprinta(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
	       const dtrace_recdesc_t *recs, unsigned nrecs, const void *vbuf, size_t len)
{
	const char *buf = vbuf;
	dtrace_aggvarid_t *aggvars;
	dt_pfwalk_t pfw;
	unsigned i;
	int naggvars = 0, rval;

	(void)data;
	(void)len;
	if ((aggvars = dt_alloc(dtp, nrecs * sizeof(*aggvars))) == NULL)
		return -1;
	/* A printa() of several aggregations is one record per aggregation,
	 * all from the same statement. */
	for (i = 0; i < nrecs; i++) {
		const dtrace_recdesc_t *nrec = &recs[i];

		if (!dt_same_stmt(dtp, nrec->dtrd_uarg, recs->dtrd_uarg))
			break;
		if (nrec->dtrd_action != recs->dtrd_action) {
			free(aggvars);
			return dt_set_errno(dtp, EDT_BADAGG);
		}
		aggvars[naggvars++] = *(const dtrace_aggvarid_t *)(buf + nrec->dtrd_offset);
	}
	if (naggvars == 0) {
		free(aggvars);
		return dt_set_errno(dtp, EDT_BADAGG);
	}

	pfw.pfw_argv = pfv;
	pfw.pfw_fp = fp;
	pfw.pfw_err = 0;
	if (naggvars == 1) {
		pfw.pfw_aid = aggvars[0];
		rval = dtrace_aggregate_walk_sorted(dtp, dt_fprinta, &pfw);
	} else {
		rval = dtrace_aggregate_walk_joined(dtp, aggvars, naggvars, dt_fprintas, &pfw);
	}
	free(aggvars);
	if (pfw.pfw_err != 0)
		return dt_set_errno(dtp, pfw.pfw_err);
	if (rval == -1)
		return -1;
	return (int)i;
}

/* Format into the handle's buffer (strsize bytes) for system()/freopen(). */
static int
dt_sprintf(dtrace_hdl_t *dtp, dt_pfargv_t *pfv, const dtrace_recdesc_t *recs, unsigned nrecs,
	   const void *buf, size_t len)
{
	dtrace_optval_t size = dtp->dt_options[DTRACEOPT_STRSIZE];
	int rval;

	if (size == DTRACEOPT_UNSET || size <= 0)
		size = DTRACE_STRSIZE_DEFAULT;
	free(dtp->dt_sprintf_buf);
	if ((dtp->dt_sprintf_buf = dt_calloc(dtp, (size_t)size)) == NULL)
		return -1;
	dtp->dt_sprintf_buflen = (size_t)size;
	dtp->dt_sprintf_len = 0;
	rval = dt_printf_format(dtp, NULL, pfv, recs, nrecs, buf, len, NULL, 0);
	dtp->dt_sprintf_buflen = 0;
	return rval;
}

int
dtrace_system(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
	      const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len)
{
	int rval = dt_sprintf(dtp, pfv, recs, nrecs, buf, len);

	(void)data;
	if (rval == -1)
		return -1;
	/* what was printed before the command must come out before its output */
	if (fp != NULL)
		(void)fflush(fp);
	if (system(dtp->dt_sprintf_buf) == -1)
		return dt_set_errno(dtp, errno);
	return rval;
}

int
dtrace_freopen(dtrace_hdl_t *dtp, FILE *fp, dt_pfargv_t *pfv, const dtrace_probedata_t *data,
	       const dtrace_recdesc_t *recs, unsigned nrecs, const void *buf, size_t len)
{
	char *filename;
	FILE *nfp;
	int rval = dt_sprintf(dtp, pfv, recs, nrecs, buf, len);

	if (rval == -1 || fp == NULL)
		return rval;

	if (pfv->pfv_format != NULL && strcmp(pfv->pfv_format, ".") == 0) {
		/*
		 * freopen(""), which the compiler records as the format ".":
		 * the original output again.  The format decides, as DTrace's
		 * test of its prefix does: one whose expansion is "." (such as
		 * freopen("%s", ".")) names that directory, which fails to open
		 * below.  DTrace reopens /dev/fd/N, which on Linux would
		 * open the file anew (its own offset); the saved descriptor
		 * itself keeps sharing the offset with whoever else writes there.
		 */
		if (dtp->dt_stdout_fd == -1)
			return rval;
		(void)fflush(fp);
		if (dup2(dtp->dt_stdout_fd, fileno(fp)) == -1)
			return dt_set_errno(dtp, errno);
		return rval;
	}
	filename = dtp->dt_sprintf_buf;

	/* Open first, so that a failure leaves the old output in place. */
	if ((nfp = fopen(filename, "a")) == NULL) {
		char msg[1200];

		(void)snprintf(msg, sizeof(msg), "couldn't freopen() \"%s\": %s", filename,
		               strerror(errno));
		return dt_handle_liberr(dtp, data, msg) == 0 ? rval : -1;
	}
	(void)fflush(fp);
	if (dtp->dt_stdout_fd == -1 && (dtp->dt_stdout_fd = dup(fileno(fp))) == -1) {
		(void)fclose(nfp);
		return dt_set_errno(dtp, errno);
	}
	if (dup2(fileno(nfp), fileno(fp)) == -1) {
		(void)fclose(nfp);
		return dt_set_errno(dtp, errno);
	}
	(void)fclose(nfp);
	return rval;
}
