/*
 * dt_error.c: the consumer's error vocabulary.  Every message a library
 * error or a D fault produces comes from the tables here, worded as DTrace
 * words them, so the command and other clients print the same text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dt_impl.h"

static const struct {
	int err;
	const char *msg;
} dt_errlist[] = {
	{EDT_VERSION, "Client requested version newer than library"},
	{EDT_COMPILER, "Error in D program compilation"},
	{EDT_NOMEM, "Memory allocation failure"},
	{EDT_NOPROBE, "No probe matches description"},
	{EDT_BADID, "Unknown probe identifier"},
	{EDT_DMISMATCH, "Data record list does not match statement"},
	{EDT_DOFFSET, "Data record offset exceeds buffer boundary"},
	{EDT_DALIGN, "Data record has inappropriate alignment"},
	{EDT_BADOPTNAME, "Invalid option name"},
	{EDT_BADOPTVAL, "Invalid value for specified option"},
	{EDT_BADOPTCTX, "Option cannot be used from within a D program"},
	{EDT_ACTIVE, "Operation illegal when tracing is active"},
	{EDT_DESTRUCTIVE, "Destructive actions not allowed"},
	{EDT_ENDTOOBIG, "END enablings exceed size of principal buffer"},
	{EDT_BUFTOOSMALL, "Enabling exceeds size of buffer"},
	{EDT_BADERROR, "Invalid library ERROR action"},
	{EDT_ERRABORT, "Abort due to error"},
	{EDT_DROPABORT, "Abort due to drop"},
	{EDT_DIRABORT, "Abort explicitly directed"},
	{EDT_BADRVAL, "Invalid return value from callback"},
	{EDT_BADNORMAL, "Invalid normalization"},
	{EDT_BADTRUNC, "Invalid truncation"},
	{EDT_BADSETOPT, "Invalid setopt() library action"},
	{EDT_BADAGG, "Unknown aggregating action"},
	{EDT_BADAGGVAR, "Invalid aggregation variable identifier"},
	{EDT_BADSTACKPC, "Invalid stack program counter size"},
	{EDT_BRICKED, "Abort due to systemic unresponsiveness"},
	{EDT_GNOENT, "DTrace device not available on system"},
	{EDT_ACCESS, "DTrace requires additional privileges"},
	{EDT_BADCONV, "Incomplete printf conversion"},
	{EDT_DIFINVAL, "DIF program content is invalid"},
	{EDT_NOTSUP, "Operation not supported by this build"},
	{EDT_UNSTABLE, "Description matches unstable set of probes"},
	{EDT_VERSINVAL, "Version is not properly formatted or is too large"},
	{EDT_VERSUNDEF, "Requested version is not supported by compiler"},
	{EDT_VERSREDUCED, "Requested version conflicts with earlier setting"},
	{EDT_BADEPID, "Invalid EPID"},
	{EDT_BADAGGID, "Invalid aggregation ID"},
	{EDT_BADBUF, "Buffer state is corrupt"},
};

/*
 * The library's debugging chatter, which DTrace prints when DTRACE_DEBUG is
 * in the environment (read by dtrace_open()) or -x debug is set.
 */
int _dtrace_debug;

void
dt_dprintf(const char *fmt, ...)
{
	va_list ap;

	if (!_dtrace_debug)
		return;
	va_start(ap, fmt);
	(void)fputs("libdtrace DEBUG: ", stderr);
	(void)vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int
dt_set_errno(dtrace_hdl_t *dtp, int err)
{
	if (dtp != NULL)
		dtp->dt_errno = err;
	return -1;
}

int
dtrace_errno(dtrace_hdl_t *dtp)
{
	return dtp->dt_errno;
}

const char *
dtrace_errmsg(dtrace_hdl_t *dtp, int error)
{
	size_t i;

	if (error == EDT_COMPILER && dtp != NULL && dtp->dt_errmsg[0] != '\0')
		return dtp->dt_errmsg;
	if (error >= EDT_BASE && error < EDT_MAX) {
		for (i = 0; i < sizeof(dt_errlist) / sizeof(dt_errlist[0]); i++) {
			if (dt_errlist[i].err == error)
				return dt_errlist[i].msg;
		}
		return "Unknown error";
	}
	return strerror(error);
}

const char *
dtrace_faultstr(dtrace_hdl_t *dtp, int fault)
{
	static const struct {
		int code;
		const char *str;
	} faults[] = {
		{DTRACEFLT_BADADDR, "invalid address"},
		{DTRACEFLT_BADALIGN, "invalid alignment"},
		{DTRACEFLT_ILLOP, "illegal operation"},
		{DTRACEFLT_DIVZERO, "divide-by-zero"},
		{DTRACEFLT_NOSCRATCH, "out of scratch space"},
		{DTRACEFLT_KPRIV, "invalid kernel access"},
		{DTRACEFLT_UPRIV, "invalid user access"},
		{DTRACEFLT_TUPOFLOW, "tuple stack overflow"},
		{DTRACEFLT_BADSTACK, "bad stack"},
		{DTRACEFLT_LIBRARY, "library-level fault"},
	};
	size_t i;

	(void)dtp;
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		if (faults[i].code == fault)
			return faults[i].str;
	}
	return "unknown fault";
}

const char *
dtrace_stability_name(dtrace_stability_t s)
{
	static const char *const names[] = DTRACE_STABILITY_NAMES;

	return s <= DTRACE_STABILITY_MAX ? names[s] : NULL;
}

const char *
dtrace_class_name(dtrace_class_t c)
{
	static const char *const names[] = DTRACE_CLASS_NAMES;

	return c <= DTRACE_CLASS_MAX ? names[c] : NULL;
}
