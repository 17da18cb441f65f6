/*
 * core/dif/dif_internal.h: what the files of core/dif/ share and nobody
 * else needs: fault recording, the subroutine and built-in variable tables,
 * scratch allocation, and the memory-access helpers of probe context.
 *
 * Everything here runs in probe context unless marked otherwise, and follows
 * the interpreter's fault discipline: a helper that fails sets a
 * DTRACE_CPUF_* bit and cpuc_illval in dtrace_cpu_core[mstate->dtms_cpu] and
 * returns a neutral value; the interpreter stops at the end of the
 * instruction that faulted.
 */
#ifndef DTRACE_CORE_DIF_INTERNAL_H
#define DTRACE_CORE_DIF_INTERNAL_H

#include "../dtrace_impl.h"

/* --- Faults ------------------------------------------------------------------ */

static inline void
dtrace_dif_fault(const dtrace_mstate_t *mstate, uint32_t flag, uintptr_t illval)
{
	dtrace_cpu_core_t *cpuc = &dtrace_cpu_core[mstate->dtms_cpu];

	cpuc->cpuc_flags |= flag;
	cpuc->cpuc_illval = illval;
}

static inline bool
dtrace_dif_faulted(const dtrace_mstate_t *mstate)
{
	return (dtrace_cpu_core[mstate->dtms_cpu].cpuc_flags & DTRACE_CPUF_FAULT) != 0;
}

/* The CPU flag for a DTRACEFLT_* code returned by a port nofault function. */
uint32_t dtrace_dif_fltflag(int flt);

/* --- Tables shared by the validator and the interpreter ------------------- */

/* Largest by-reference value a DIFO may return (a record carries it), and
 * the largest tuple key whose size the dynamic-variable chunk accounts for. */
#define DTRACE_DIF_BYREF_MAX (1024 * 1024)

/*
 * Bytes of storage a variable's by-reference value takes.  A string gets one
 * more, always NUL: a string as long as strsize fills the variable with no
 * NUL of its own (as in DTrace), and a pointer into it (strchr(), strstr())
 * must still find its end there rather than in the next variable.
 */
static inline size_t
dif_byref_size(const dtrace_diftype_t *t)
{
	return t->dtdt_size + (t->dtdt_kind == DIF_TYPE_STRING ? 1 : 0);
}

#define DTRACE_SUBR_IMPL 0x01	     /* implemented by this core */
#define DTRACE_SUBR_DESTRUCTIVE 0x02 /* needs the destructive option */
#define DTRACE_SUBR_PROC 0x04	     /* needs DTRACE_PRIV_PROC (or KERNEL) */

typedef struct dtrace_subr_info {
	const char *dsi_name; /* NULL: no such subroutine */
	uint32_t dsi_flags;   /* DTRACE_SUBR_* */
} dtrace_subr_info_t;

/* The subroutine numbered `subr`, or NULL when DIF_SUBR_MAX < subr. */
const dtrace_subr_info_t *dtrace_dif_subr_info(uint32_t subr);

/* Whether built-in scalar `id` (< DIF_VAR_OTHER_UBASE) is one this core can
 * produce; `name` receives its D name (or NULL for unknown ids). */
bool dtrace_dif_var_supported(uint32_t id, const char **name);

/* Run subroutine `subr` (validated) with the tuple stack tupregs[0..nargs-1];
 * the result goes to regs[rd]. */
void dtrace_dif_subr(uint32_t subr, uint32_t rd, uint64_t *regs, const dtrace_key_t *tupregs,
		     int nargs, dtrace_mstate_t *mstate, dtrace_vstate_t *vs,
		     dtrace_state_t *state);

/* Built-in variable `v` (array element `ndx` for args[]/uregs[]). */
uint64_t dtrace_dif_variable(dtrace_mstate_t *mstate, dtrace_state_t *state, uint64_t v,
			     uint64_t ndx);

/* --- Scratch ------------------------------------------------------------------ */

/* Reserve `size` bytes of this CPU's scratch aligned to `align` (a power of
 * two); NOSCRATCH fault and 0 when they do not fit. */
static inline uintptr_t
dtrace_dif_scratch(dtrace_mstate_t *mstate, uint64_t size, uint64_t align)
{
	uintptr_t p = (mstate->dtms_scratch_ptr + (align - 1)) & ~(uintptr_t)(align - 1);
	uintptr_t end = mstate->dtms_scratch_base + mstate->dtms_scratch_size;

	/* Written so that a huge `size` cannot wrap around. */
	if (p < mstate->dtms_scratch_ptr || p > end || size > end - p) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_NOSCRATCH, 0);
		return 0;
	}
	mstate->dtms_scratch_ptr = p + size;
	return p;
}

/* Room left in scratch: whether `size` bytes fit at dtms_scratch_ptr. */
static inline bool
dtrace_dif_inscratch(const dtrace_mstate_t *mstate, uint64_t size)
{
	return mstate->dtms_scratch_base + mstate->dtms_scratch_size - mstate->dtms_scratch_ptr >=
	       size;
}

/* [addr, addr + sz) lies inside [base, base + len) without wrapping. */
static inline bool
dtrace_dif_inrange(uint64_t addr, uint64_t sz, uint64_t base, uint64_t len)
{
	return addr - base < len && addr + sz - base <= len && addr + sz >= addr;
}

/* --- Reading D memory ------------------------------------------------------------ */

/*
 * Bytes readable directly (without the port) at `addr`: memory the core
 * itself owns and that stays valid for the whole firing, namely this CPU's
 * scratch and the running DIFO's string table.  0 if `addr` is elsewhere.
 */
static inline size_t
dtrace_dif_direct(const dtrace_mstate_t *mstate, uintptr_t addr)
{
	const dtrace_difo_t *dp = mstate->dtms_difo;

	if (addr - mstate->dtms_scratch_base < mstate->dtms_scratch_size)
		return mstate->dtms_scratch_base + mstate->dtms_scratch_size - addr;
	if (dp != NULL && addr - (uintptr_t)dp->dtdo_strtab < dp->dtdo_strlen)
		return (uintptr_t)dp->dtdo_strtab + dp->dtdo_strlen - addr;
	return 0;
}

/*
 * Copy at most `len` bytes of the string at `src` (kernel space) into `dst`,
 * stopping after its NUL; returns the bytes copied (NUL included if seen).
 * On a fault, returns what was copied before it with the fault recorded.
 */
size_t dtrace_dif_copystr(dtrace_mstate_t *mstate, uintptr_t src, char *dst, size_t len);

/* Compare two D strings (either may be NULL, reading as "") over at most
 * `lim` bytes, as strncmp with unsigned bytes. */
int dtrace_dif_strncmp(dtrace_mstate_t *mstate, uintptr_t s1, uintptr_t s2, size_t lim);

/* Compare `len` bytes of D memory at `s1` with core memory at `s2`;
 * 0 when equal. */
int dtrace_dif_bcmp(dtrace_mstate_t *mstate, uintptr_t s1, const void *s2, size_t len);

/* The byte at `addr` of a D string (nofault); 0 on a fault. */
static inline uint8_t
dtrace_dif_load8(dtrace_mstate_t *mstate, uintptr_t addr)
{
	if (dtrace_dif_direct(mstate, addr) != 0)
		return *(const uint8_t *)addr;
	return (uint8_t)dtrace_dif_load(mstate, DTRACE_AS_KERNEL, addr, 1);
}

/*
 * Privilege-checked string access for subroutines: whether the consumer may
 * read the string at `addr` (KPRIV fault otherwise).  *lim receives how many
 * bytes from `addr` may be examined (at most `sz`).
 */
bool dtrace_dif_strcanload(uint64_t addr, size_t sz, size_t *lim, dtrace_mstate_t *mstate,
			   const dtrace_vstate_t *vs);

/* The strsize option of the firing state. */
static inline size_t
dtrace_dif_strsize(const dtrace_state_t *state)
{
	dtrace_optval_t v = state->dts_options[DTRACEOPT_STRSIZE];

	return v > 0 ? (size_t)v : DTRACE_STRSIZE_DEFAULT;
}

/* The key of the current thread's thread-local variables (once per firing). */
static inline uint64_t
dtrace_dif_thread_key(dtrace_mstate_t *mstate)
{
	if (!(mstate->dtms_present & DTRACE_MSTATE_TLSKEY)) {
		mstate->dtms_tlskey =
			dtrace_port_curthread_value(DTRACE_THR_KEY) + DIF_VARIABLE_MAX + 1;
		mstate->dtms_present |= DTRACE_MSTATE_TLSKEY;
	}
	return mstate->dtms_tlskey;
}

#endif /* DTRACE_CORE_DIF_INTERNAL_H */
