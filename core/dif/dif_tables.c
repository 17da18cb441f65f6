/*
 * core/dif/dif_tables.c: what this core knows about DIF's subroutines and
 * built-in variables, shared by the validator (which refuses what is not
 * here) and the interpreter (which relies on that).
 *
 * Subroutines that read OS-specific kernel structures (mutex_owned(),
 * msgsize(), ddi_pathname(), getf(), sx_*() ...) have names but no
 * DTRACE_SUBR_IMPL: a portable core cannot interpret those structures, so
 * DIF calling them is refused at validation with a precise reason rather
 * than run with made-up results.  The same holds for built-in variables
 * with no source in core/port.h.
 *
 * Pure data; no context restrictions.
 */
#include "dif_internal.h"

#define IMPL DTRACE_SUBR_IMPL

static const dtrace_subr_info_t dif_subr_table[DIF_SUBR_MAX + 1] = {
	[DIF_SUBR_RAND] = {"rand", IMPL},
	[DIF_SUBR_MUTEX_OWNED] = {"mutex_owned", 0},
	[DIF_SUBR_MUTEX_OWNER] = {"mutex_owner", 0},
	[DIF_SUBR_MUTEX_TYPE_ADAPTIVE] = {"mutex_type_adaptive", 0},
	[DIF_SUBR_MUTEX_TYPE_SPIN] = {"mutex_type_spin", 0},
	[DIF_SUBR_RW_READ_HELD] = {"rw_read_held", 0},
	[DIF_SUBR_RW_WRITE_HELD] = {"rw_write_held", 0},
	[DIF_SUBR_RW_ISWRITER] = {"rw_iswriter", 0},
	[DIF_SUBR_COPYIN] = {"copyin", IMPL},
	[DIF_SUBR_COPYINSTR] = {"copyinstr", IMPL},
	[DIF_SUBR_SPECULATION] = {"speculation", IMPL},
	[DIF_SUBR_PROGENYOF] = {"progenyof", IMPL},
	[DIF_SUBR_STRLEN] = {"strlen", IMPL},
	[DIF_SUBR_COPYOUT] = {"copyout", IMPL | DTRACE_SUBR_DESTRUCTIVE | DTRACE_SUBR_PROC},
	[DIF_SUBR_COPYOUTSTR] = {"copyoutstr",
				 IMPL | DTRACE_SUBR_DESTRUCTIVE | DTRACE_SUBR_PROC},
	[DIF_SUBR_ALLOCA] = {"alloca", IMPL},
	[DIF_SUBR_BCOPY] = {"bcopy", IMPL},
	[DIF_SUBR_COPYINTO] = {"copyinto", IMPL},
	[DIF_SUBR_MSGDSIZE] = {"msgdsize", 0},
	[DIF_SUBR_MSGSIZE] = {"msgsize", 0},
	[DIF_SUBR_GETMAJOR] = {"getmajor", IMPL},
	[DIF_SUBR_GETMINOR] = {"getminor", IMPL},
	[DIF_SUBR_DDI_PATHNAME] = {"ddi_pathname", 0},
	[DIF_SUBR_STRJOIN] = {"strjoin", IMPL},
	[DIF_SUBR_LLTOSTR] = {"lltostr", IMPL},
	[DIF_SUBR_BASENAME] = {"basename", IMPL},
	[DIF_SUBR_DIRNAME] = {"dirname", IMPL},
	[DIF_SUBR_CLEANPATH] = {"cleanpath", IMPL},
	[DIF_SUBR_STRCHR] = {"strchr", IMPL},
	[DIF_SUBR_STRRCHR] = {"strrchr", IMPL},
	[DIF_SUBR_STRSTR] = {"strstr", IMPL},
	[DIF_SUBR_STRTOK] = {"strtok", IMPL},
	[DIF_SUBR_SUBSTR] = {"substr", IMPL},
	[DIF_SUBR_INDEX] = {"index", IMPL},
	[DIF_SUBR_RINDEX] = {"rindex", IMPL},
	[DIF_SUBR_HTONS] = {"htons", IMPL},
	[DIF_SUBR_HTONL] = {"htonl", IMPL},
	[DIF_SUBR_HTONLL] = {"htonll", IMPL},
	[DIF_SUBR_NTOHS] = {"ntohs", IMPL},
	[DIF_SUBR_NTOHL] = {"ntohl", IMPL},
	[DIF_SUBR_NTOHLL] = {"ntohll", IMPL},
	[DIF_SUBR_INET_NTOP] = {"inet_ntop", IMPL},
	[DIF_SUBR_INET_NTOA] = {"inet_ntoa", IMPL},
	[DIF_SUBR_INET_NTOA6] = {"inet_ntoa6", IMPL},
	[DIF_SUBR_TOUPPER] = {"toupper", IMPL},
	[DIF_SUBR_TOLOWER] = {"tolower", IMPL},
	[DIF_SUBR_GETF] = {"getf", 0},
	[DIF_SUBR_JSON] = {"json", IMPL},
	[DIF_SUBR_STRTOLL] = {"strtoll", IMPL},
	/* 49..54: reserved, no name: "unknown subroutine" */
	[DIF_SUBR_MEMREF] = {"memref", IMPL},
	[DIF_SUBR_TYPEREF] = {"typeref", 0},
	[DIF_SUBR_SX_SHARED_HELD] = {"sx_shared_held", 0},
	[DIF_SUBR_SX_EXCLUSIVE_HELD] = {"sx_exclusive_held", 0},
	[DIF_SUBR_SX_ISEXCLUSIVE] = {"sx_isexclusive", 0},
	[DIF_SUBR_MEMSTR] = {"memstr", IMPL},
};

const dtrace_subr_info_t *
dtrace_dif_subr_info(uint32_t subr)
{
	return subr <= DIF_SUBR_MAX ? &dif_subr_table[subr] : NULL;
}

/* Built-in scalars by id - DIF_VAR_OTHER_MIN. */
static const struct {
	const char *name;
	bool supported;
} dif_var_table[] = {
	[DIF_VAR_CURTHREAD - DIF_VAR_OTHER_MIN] = {"curthread", true},
	[DIF_VAR_TIMESTAMP - DIF_VAR_OTHER_MIN] = {"timestamp", true},
	[DIF_VAR_VTIMESTAMP - DIF_VAR_OTHER_MIN] = {"vtimestamp", true},
	[DIF_VAR_IPL - DIF_VAR_OTHER_MIN] = {"ipl", true},
	[DIF_VAR_EPID - DIF_VAR_OTHER_MIN] = {"epid", true},
	[DIF_VAR_ID - DIF_VAR_OTHER_MIN] = {"id", true},
	[DIF_VAR_ARG0 - DIF_VAR_OTHER_MIN] = {"arg0", true},
	[DIF_VAR_ARG1 - DIF_VAR_OTHER_MIN] = {"arg1", true},
	[DIF_VAR_ARG2 - DIF_VAR_OTHER_MIN] = {"arg2", true},
	[DIF_VAR_ARG3 - DIF_VAR_OTHER_MIN] = {"arg3", true},
	[DIF_VAR_ARG4 - DIF_VAR_OTHER_MIN] = {"arg4", true},
	[DIF_VAR_ARG5 - DIF_VAR_OTHER_MIN] = {"arg5", true},
	[DIF_VAR_ARG6 - DIF_VAR_OTHER_MIN] = {"arg6", true},
	[DIF_VAR_ARG7 - DIF_VAR_OTHER_MIN] = {"arg7", true},
	[DIF_VAR_ARG8 - DIF_VAR_OTHER_MIN] = {"arg8", true},
	[DIF_VAR_ARG9 - DIF_VAR_OTHER_MIN] = {"arg9", true},
	[DIF_VAR_STACKDEPTH - DIF_VAR_OTHER_MIN] = {"stackdepth", true},
	[DIF_VAR_CALLER - DIF_VAR_OTHER_MIN] = {"caller", true},
	[DIF_VAR_PROBEPROV - DIF_VAR_OTHER_MIN] = {"probeprov", true},
	[DIF_VAR_PROBEMOD - DIF_VAR_OTHER_MIN] = {"probemod", true},
	[DIF_VAR_PROBEFUNC - DIF_VAR_OTHER_MIN] = {"probefunc", true},
	[DIF_VAR_PROBENAME - DIF_VAR_OTHER_MIN] = {"probename", true},
	[DIF_VAR_PID - DIF_VAR_OTHER_MIN] = {"pid", true},
	[DIF_VAR_TID - DIF_VAR_OTHER_MIN] = {"tid", true},
	[DIF_VAR_EXECNAME - DIF_VAR_OTHER_MIN] = {"execname", true},
	[DIF_VAR_ZONENAME - DIF_VAR_OTHER_MIN] = {"zonename", true},
	[DIF_VAR_WALLTIMESTAMP - DIF_VAR_OTHER_MIN] = {"walltimestamp", true},
	[DIF_VAR_USTACKDEPTH - DIF_VAR_OTHER_MIN] = {"ustackdepth", true},
	[DIF_VAR_UCALLER - DIF_VAR_OTHER_MIN] = {"ucaller", true},
	[DIF_VAR_PPID - DIF_VAR_OTHER_MIN] = {"ppid", true},
	[DIF_VAR_UID - DIF_VAR_OTHER_MIN] = {"uid", true},
	[DIF_VAR_GID - DIF_VAR_OTHER_MIN] = {"gid", true},
	[DIF_VAR_ERRNO - DIF_VAR_OTHER_MIN] = {"errno", true},
	[DIF_VAR_THREADNAME - DIF_VAR_OTHER_MIN] = {"threadname", false},
	[DIF_VAR_JID - DIF_VAR_OTHER_MIN] = {"jid", false},
	[DIF_VAR_JAILNAME - DIF_VAR_OTHER_MIN] = {"jailname", false},
	[DIF_VAR_EXECARGS - DIF_VAR_OTHER_MIN] = {"execargs", false},
	[DIF_VAR_CPU - DIF_VAR_OTHER_MIN] = {"cpu", true},
};

bool
dtrace_dif_var_supported(uint32_t id, const char **name)
{
	uint32_t i = id - DIF_VAR_OTHER_MIN;

	*name = NULL;
	if (id < DIF_VAR_OTHER_MIN || i >= sizeof(dif_var_table) / sizeof(dif_var_table[0]))
		return false;
	*name = dif_var_table[i].name;
	return dif_var_table[i].supported;
}

uint32_t
dtrace_dif_access(uint32_t priv)
{
	uint32_t a = 0;

	if (priv & DTRACE_PRIV_KERNEL)
		a |= DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	if (priv & (DTRACE_PRIV_PROC | DTRACE_PRIV_OWNER))
		a |= DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	if (priv & (DTRACE_PRIV_USER | DTRACE_PRIV_ZONEOWNER))
		a |= DTRACE_ACCESS_ARGS;
	return a;
}
