/*
 * isa/cfi_unwind.c: stack walks by call-frame information, shared by every
 * ISA.
 *
 * Why.  ustack() must name the callers of code built without frame
 * pointers (Debian's libc, python, most distribution libraries), where
 * isa_fp_walk() loses the chain at the first such function.  Compilers
 * describe every function's frame in .eh_frame as a small program of CFA
 * instructions; the linker indexes the FDEs by start address in
 * .eh_frame_hdr, which the loader maps (PT_GNU_EH_FRAME).  Ports hand us
 * that address per module (isa_cfi_module_t).
 *
 * How.  For each frame: find the module whose text holds the PC, binary-
 * search its .eh_frame_hdr table for the FDE, parse the FDE and its CIE,
 * run the CIE's initial instructions and then the FDE's up to the PC, and
 * apply the resulting row: the CFA (the caller's stack pointer) is a
 * register plus an offset, and the return address and callee-saved
 * registers are found by their rules, some of them small DWARF
 * expressions.  Where no CFI describes a PC (no module, no .eh_frame_hdr,
 * no FDE, data or an expression we refuse) one frame-pointer step (the
 * frame record of isa_regs.h) stands in.
 * The PC looked up for a caller is its return address minus one, since a
 * call may be the last instruction of a function, unless the callee was a
 * signal trampoline (augmentation "S"): then it is an interrupted PC.
 *
 * Invariants.  This runs in probe context (a signal handler of a traced
 * process; later a kernel trap handler), so:
 *   - every load of unwind data or of the stack is a nofault load: corrupt
 *     or unmapped data ends the frame, never the thread;
 *   - nothing is allocated, no lock is taken, no library call is made;
 *   - work is bounded: at most `max` frames, CFI_MAX_SEARCH probes of the
 *     binary-search table, CFI_MAX_OPS CFA instructions per frame,
 *     CFI_STATE_DEPTH remembered rows, EXPR_MAX_OPS operations per DWARF
 *     expression, LEB128 numbers of at most 10 bytes;
 *   - the walk only climbs: a caller's CFA lies above the callee's stack
 *     pointer (or at it, for an interrupted frame: a leaf that allocated
 *     nothing; then its PC must change), so no data can make it loop;
 *   - the stack stays small: CFI_STATE_DEPTH + 2 rows of 5 bytes per
 *     followed register in cfi_step, a few 32-byte read windows; a whole
 *     walk takes 1.2-1.8 KiB (x86_64 to riscv, tests/isa/cfi measures it).
 * Only the registers a caller can need are followed beyond the first frame
 * (ISA_DWARF_TRACKED: callee-saved, sp, fp, return address); the
 * interrupted frame may use any register of its isa_regs_t as CFA base.
 *
 * Limits.  64-bit processes only (absolute pointers are 8 bytes).  Only
 * .eh_frame through .eh_frame_hdr's sorted table: no .debug_frame, no
 * linear scan, so an object linked without a table (gcc's -static omits
 * --eh-frame-hdr) is walked by frame pointer.  The module table is
 * scanned linearly.  DWARF expressions are the value-computing subset.
 * After a frame-pointer step on AArch64 the caller's sp is unknown (its
 * frame record sits at the bottom of the frame), so a following frame
 * whose CFA is sp-based falls back to the frame pointer again.  Through a
 * signal frame the walk is as good as the trampoline's CFI: glibc's x86_64
 * __restore_rt restores every register and the PC; Linux's arm64 vdso
 * trampoline restores only x29 and x30, so the interrupted function itself
 * is skipped there (a port starting from the trap frame is not affected).
 */
#include "isa.h"

#define CFI_MAX_SEARCH 64           /* binary-search probes of one table */
#define CFI_MAX_FDES (1u << 28)     /* table entries believed */
#define CFI_MAX_ENTRY (1u << 24)    /* bytes of one CIE or FDE */
#define CFI_MAX_OPS 8192            /* CFA instructions run for one frame */
#define CFI_STATE_DEPTH 8           /* DW_CFA_remember_state nesting */
#define CFI_MAX_AUG 8               /* augmentation string bytes, NUL included */
#define CFI_FP_MAX_FRAME (1u << 28) /* a frame record this far above sp is garbage */

/* Pointer encodings (DW_EH_PE_*, LSB "Exception Frames"). */
#define PE_ABSPTR 0x00
#define PE_ULEB128 0x01
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SLEB128 0x09
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_PCREL 0x10
#define PE_DATAREL 0x30
#define PE_INDIRECT 0x80
#define PE_OMIT 0xff

/* CFA instructions (DWARF 5 section 6.4.2, and the GNU ones gcc emits). */
#define CFA_ADVANCE_LOC 0x40 /* high two bits; delta in the low six */
#define CFA_OFFSET 0x80      /* register in the low six */
#define CFA_RESTORE 0xc0     /* register in the low six */
#define CFA_NOP 0x00
#define CFA_SET_LOC 0x01
#define CFA_ADVANCE_LOC1 0x02
#define CFA_ADVANCE_LOC2 0x03
#define CFA_ADVANCE_LOC4 0x04
#define CFA_OFFSET_EXTENDED 0x05
#define CFA_RESTORE_EXTENDED 0x06
#define CFA_UNDEFINED 0x07
#define CFA_SAME_VALUE 0x08
#define CFA_REGISTER 0x09
#define CFA_REMEMBER_STATE 0x0a
#define CFA_RESTORE_STATE 0x0b
#define CFA_DEF_CFA 0x0c
#define CFA_DEF_CFA_REGISTER 0x0d
#define CFA_DEF_CFA_OFFSET 0x0e
#define CFA_DEF_CFA_EXPRESSION 0x0f
#define CFA_EXPRESSION 0x10
#define CFA_OFFSET_EXTENDED_SF 0x11
#define CFA_DEF_CFA_SF 0x12
#define CFA_DEF_CFA_OFFSET_SF 0x13
#define CFA_VAL_OFFSET 0x14
#define CFA_VAL_OFFSET_SF 0x15
#define CFA_VAL_EXPRESSION 0x16
#define CFA_NEGATE_RA_STATE 0x2d /* AArch64; SPARC's GNU_window_save elsewhere */
#define CFA_GNU_ARGS_SIZE 0x2e
#define CFA_GNU_NEGATIVE_OFFSET_EXTENDED 0x2f

/*
 * The followed registers ("slots"), numbered in ISA_DWARF_TRACKED order:
 * slot_of_dwarf[] maps a DWARF number to 1 + its slot (0: not followed),
 * dwarf_of_slot[] back; isa_of_dwarf[] maps a DWARF number to 1 + its
 * isa_regs_t index (0: none).
 */
#define SLOT_NAME(dw) CFI_SLOT_##dw,
enum { ISA_DWARF_TRACKED(SLOT_NAME) CFI_NSLOTS };
#undef SLOT_NAME
_Static_assert(CFI_NSLOTS <= 32, "cf_known is a 32-bit mask");

#define SLOT_OF(dw) [dw] = CFI_SLOT_##dw + 1,
static const uint8_t slot_of_dwarf[ISA_DWARF_NREGS] = {ISA_DWARF_TRACKED(SLOT_OF)};
#undef SLOT_OF
#define DWARF_OF(dw) dw,
static const uint8_t dwarf_of_slot[CFI_NSLOTS] = {ISA_DWARF_TRACKED(DWARF_OF)};
#undef DWARF_OF
#define ISA_OF(dw, isa) [dw] = (isa) + 1,
static const uint8_t isa_of_dwarf[ISA_DWARF_NREGS] = {ISA_DWARF_REGS(ISA_OF)};
#undef ISA_OF

static int
slot_of(uint64_t dw)
{
	return dw < ISA_DWARF_NREGS ? (int)slot_of_dwarf[dw] - 1 : -1;
}

/* ------------------------------------------------------------------------
 * Reading unwind data
 * ------------------------------------------------------------------------
 * A cursor reads [cc_p, cc_end) through nofault copies into a small window,
 * so a CFA program costs one guarded copy per CUR_WINDOW bytes rather than
 * one per byte.  Errors are sticky: a fault, a read past the end or a
 * malformed number sets cc_bad, and every later read returns 0, so parsers
 * check once per record.
 */
#define CUR_WINDOW 32

typedef struct cfi_cur {
	uintptr_t cc_p;
	uintptr_t cc_end;
	uintptr_t cc_wbase; /* address of cc_win[0] */
	uint8_t cc_wlen;    /* bytes of cc_win that hold data */
	bool cc_bad;
	uint8_t cc_win[CUR_WINDOW];
} cfi_cur_t;

static void
cur_init(cfi_cur_t *c, uintptr_t p, uintptr_t end)
{
	c->cc_p = p;
	c->cc_end = end;
	c->cc_wbase = 0;
	c->cc_wlen = 0;
	c->cc_bad = end < p;
}

/* Refill the window at cc_p with at least n bytes. */
static bool
cur_window(cfi_cur_t *c, size_t n)
{
	size_t len = c->cc_end - c->cc_p;

	if (len > CUR_WINDOW)
		len = CUR_WINDOW;
	/* A window past the data's end may reach a page the data does not:
	 * then copy only what was asked for. */
	if (isa_nofault_copy(c->cc_win, c->cc_p, len).fault != 0) {
		len = n;
		if (isa_nofault_copy(c->cc_win, c->cc_p, len).fault != 0)
			return false;
	}
	c->cc_wbase = c->cc_p;
	c->cc_wlen = (uint8_t)len;
	return true;
}

/* An n-byte (1, 2, 4, 8) unsigned number in the processor's byte order.
 * Unwind data is packed: fields are copied, never loaded misaligned. */
static uint64_t
cur_fixed(cfi_cur_t *c, size_t n)
{
	const uint8_t *w;
	uint16_t v16;
	uint32_t v32;
	uint64_t v;

	if (c->cc_bad || c->cc_end - c->cc_p < n ||
	    ((c->cc_p < c->cc_wbase || c->cc_p - c->cc_wbase + n > c->cc_wlen) &&
	     !cur_window(c, n))) {
		c->cc_bad = true;
		return 0;
	}
	w = &c->cc_win[c->cc_p - c->cc_wbase];
	switch (n) {
	case 1:
		v = w[0];
		break;
	case 2:
		__builtin_memcpy(&v16, w, 2);
		v = v16;
		break;
	case 4:
		__builtin_memcpy(&v32, w, 4);
		v = v32;
		break;
	default:
		__builtin_memcpy(&v, w, 8);
		break;
	}
	c->cc_p += n;
	return v;
}

/* ULEB128 of at most 10 bytes whose value fits 64 bits. */
static uint64_t
cur_uleb(cfi_cur_t *c)
{
	uint64_t v = 0, b;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 7) {
		b = cur_fixed(c, 1);
		if (shift == 63 && (b & 0x7e) != 0)
			break;
		v |= (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return c->cc_bad ? 0 : v;
	}
	c->cc_bad = true;
	return 0;
}

/* SLEB128 of at most 10 bytes whose value fits int64_t. */
static int64_t
cur_sleb(cfi_cur_t *c)
{
	uint64_t v = 0, b;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 7) {
		b = cur_fixed(c, 1);
		/* The tenth byte holds bit 63 and its sign extension only. */
		if (shift == 63 && b != 0 && b != 0x7f)
			break;
		v |= (b & 0x7f) << shift;
		if ((b & 0x80) == 0) {
			if (shift + 7 < 64 && (b & 0x40) != 0)
				v |= ~(uint64_t)0 << (shift + 7);
			return c->cc_bad ? 0 : (int64_t)v;
		}
	}
	c->cc_bad = true;
	return 0;
}

/* Bytes of a fixed-size pointer format, 0 for a variable or unknown one. */
static size_t
enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case PE_ABSPTR:
		return sizeof(uintptr_t);
	case PE_UDATA2:
	case PE_SDATA2:
		return 2;
	case PE_UDATA4:
	case PE_SDATA4:
		return 4;
	case PE_UDATA8:
	case PE_SDATA8:
		return 8;
	default:
		return 0;
	}
}

/*
 * A pointer in encoding enc: its format (low nibble) and how it applies
 * (absolute, PC-relative, or relative to `datarel`, the start of
 * .eh_frame_hdr: 0 where there is no such base).  Indirect pointers are
 * refused: they would need a load from the module's GOT, and nothing we
 * use is encoded so.
 */
static uint64_t
cur_pointer(cfi_cur_t *c, uint8_t enc, uintptr_t datarel)
{
	uintptr_t at = c->cc_p;
	uint64_t v;

	switch (enc & 0x0f) {
	case PE_ABSPTR:
		v = cur_fixed(c, sizeof(uintptr_t));
		break;
	case PE_ULEB128:
		v = cur_uleb(c);
		break;
	case PE_SLEB128:
		v = (uint64_t)cur_sleb(c);
		break;
	case PE_UDATA2:
	case PE_UDATA4:
	case PE_UDATA8:
		v = cur_fixed(c, enc_size(enc));
		break;
	case PE_SDATA2:
		v = (uint64_t)(int64_t)(int16_t)cur_fixed(c, 2);
		break;
	case PE_SDATA4:
		v = (uint64_t)(int64_t)(int32_t)cur_fixed(c, 4);
		break;
	case PE_SDATA8:
		v = cur_fixed(c, 8);
		break;
	default:
		c->cc_bad = true;
		return 0;
	}
	switch (enc & 0x70) {
	case 0:
		break;
	case PE_PCREL:
		v += at;
		break;
	case PE_DATAREL:
		if (datarel == 0)
			c->cc_bad = true;
		v += datarel;
		break;
	default: /* textrel, funcrel, aligned: no base known here */
		c->cc_bad = true;
	}
	if ((enc & PE_INDIRECT) != 0)
		c->cc_bad = true;
	return c->cc_bad ? 0 : v;
}

/* ------------------------------------------------------------------------
 * Finding and parsing the FDE
 * ------------------------------------------------------------------------
 */

/*
 * The FDE address .eh_frame_hdr at hdr gives for pc: the entry with the
 * greatest initial location not above pc.  The table is only an index: the
 * FDE found must still cover pc (fde_parse checks), which also catches an
 * unsorted or corrupt table.
 */
static bool
hdr_find_fde(uintptr_t hdr, uint64_t pc, uintptr_t *fde)
{
	uint8_t version, ptr_enc, count_enc, table_enc;
	uint64_t count, lo, hi, mid, loc;
	uintptr_t table, entry;
	size_t esz;
	cfi_cur_t c;
	int steps;

	cur_init(&c, hdr, UINTPTR_MAX);
	version = (uint8_t)cur_fixed(&c, 1);
	ptr_enc = (uint8_t)cur_fixed(&c, 1);
	count_enc = (uint8_t)cur_fixed(&c, 1);
	table_enc = (uint8_t)cur_fixed(&c, 1);
	if (c.cc_bad || version != 1 || ptr_enc == PE_OMIT || count_enc == PE_OMIT)
		return false;
	(void)cur_pointer(&c, ptr_enc, hdr); /* .eh_frame itself: not needed */
	count = cur_pointer(&c, count_enc, hdr);
	/* Binary search needs fixed-size entries; a linker that wrote none
	 * (table_enc omitted) leaves only a linear scan, which we do not do. */
	esz = table_enc == PE_OMIT ? 0 : enc_size(table_enc);
	if (c.cc_bad || esz == 0 || count == 0 || count > CFI_MAX_FDES)
		return false;
	table = c.cc_p;

	lo = 0;
	hi = count;
	for (steps = 0; lo < hi; steps++) {
		if (steps == CFI_MAX_SEARCH)
			return false;
		mid = lo + (hi - lo) / 2;
		entry = table + (uintptr_t)mid * 2 * esz;
		cur_init(&c, entry, entry + 2 * esz);
		loc = cur_pointer(&c, table_enc, hdr);
		if (c.cc_bad)
			return false;
		if (loc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	entry = table + (uintptr_t)(lo - 1) * 2 * esz;
	cur_init(&c, entry, entry + 2 * esz);
	(void)cur_pointer(&c, table_enc, hdr);
	*fde = (uintptr_t)cur_pointer(&c, table_enc, hdr);
	return !c.cc_bad;
}

/*
 * The extent of the CIE or FDE at p: its length word (or the escape
 * 0xffffffff and an 8-byte length), then the body up to the cursor's end.
 * In .eh_frame the CIE id and the CIE pointer after it are 4 bytes in both
 * forms (the LSB's layout, unlike 64-bit .debug_frame).  False for the
 * zero terminator, an unreadable header or an implausible length.
 */
static bool
entry_extent(uintptr_t p, cfi_cur_t *c)
{
	uint64_t len;

	cur_init(c, p, UINTPTR_MAX);
	len = cur_fixed(c, 4);
	if (len == 0xffffffff)
		len = cur_fixed(c, 8);
	if (c->cc_bad || len == 0 || len > CFI_MAX_ENTRY || c->cc_p + len < c->cc_p)
		return false;
	c->cc_end = c->cc_p + len;
	return true;
}

typedef struct cfi_cie {
	uint64_t ci_code_align;
	int64_t ci_data_align;
	uint64_t ci_ra;     /* DWARF column of the return address */
	uintptr_t ci_insns; /* initial instructions [ci_insns, ci_end) */
	uintptr_t ci_end;
	uint8_t ci_fde_enc; /* "R": encoding of the FDE's addresses */
	bool ci_has_aug;    /* "z": FDEs carry augmentation data */
	bool ci_signal;     /* "S": the frame of a signal trampoline */
} cfi_cie_t;

static bool
cie_parse(uintptr_t p, cfi_cie_t *cie)
{
	char aug[CFI_MAX_AUG];
	uintptr_t aug_end = 0;
	uint8_t version, enc;
	cfi_cur_t c;
	size_t i;

	if (!entry_extent(p, &c) || cur_fixed(&c, 4) != 0)
		return false; /* an FDE, or unreadable */
	version = (uint8_t)cur_fixed(&c, 1);
	if (version != 1 && version != 3)
		return false;
	for (i = 0; i < sizeof(aug); i++) {
		aug[i] = (char)cur_fixed(&c, 1);
		if (aug[i] == '\0' || c.cc_bad)
			break;
	}
	if (c.cc_bad || i == sizeof(aug))
		return false;
	cie->ci_code_align = cur_uleb(&c);
	cie->ci_data_align = cur_sleb(&c);
	cie->ci_ra = version == 1 ? cur_fixed(&c, 1) : cur_uleb(&c);
	cie->ci_fde_enc = PE_ABSPTR;
	cie->ci_has_aug = aug[0] == 'z';
	cie->ci_signal = false;
	if (cie->ci_has_aug) {
		aug_end = (uintptr_t)cur_uleb(&c);
		aug_end += c.cc_p;
		if (aug_end < c.cc_p || aug_end > c.cc_end)
			return false;
	}
	/* Without "z" only letters that carry no data can be understood. */
	for (i = cie->ci_has_aug ? 1 : 0; aug[i] != '\0' && !c.cc_bad; i++) {
		switch (aug[i]) {
		case 'R':
			cie->ci_fde_enc = (uint8_t)cur_fixed(&c, 1);
			break;
		case 'S':
			cie->ci_signal = true;
			break;
		case 'L': /* the LSDA's encoding: its pointer is FDE augmentation data */
			if (!cie->ci_has_aug)
				return false;
			(void)cur_fixed(&c, 1);
			break;
		case 'P': /* personality routine: skipped by its size */
			if (!cie->ci_has_aug)
				return false;
			enc = (uint8_t)cur_fixed(&c, 1);
			(void)cur_pointer(&c, enc & 0x0f, 0);
			break;
		case 'B': /* AArch64 pointer authentication with the B key */
		case 'G': /* AArch64 memory tagging */
			break;
		default:
			return false;
		}
	}
	if (cie->ci_has_aug && !c.cc_bad)
		c.cc_p = aug_end;
	cie->ci_insns = c.cc_p;
	cie->ci_end = c.cc_end;
	return !c.cc_bad;
}

/*
 * The FDE at p, if it covers pc: its CIE, start address, and instructions
 * [*insns, *end).
 */
static bool
fde_parse(uintptr_t p, uint64_t pc, cfi_cie_t *cie, uint64_t *start, uintptr_t *insns,
          uintptr_t *end)
{
	uint64_t cie_off, range, aug_len;
	uintptr_t field;
	cfi_cur_t c;

	if (!entry_extent(p, &c))
		return false;
	field = c.cc_p;
	cie_off = cur_fixed(&c, 4);
	if (c.cc_bad || cie_off == 0 || cie_off > field)
		return false; /* a CIE, or a pointer before address 0 */
	if (!cie_parse(field - (uintptr_t)cie_off, cie))
		return false;
	*start = cur_pointer(&c, cie->ci_fde_enc, 0);
	range = cur_pointer(&c, cie->ci_fde_enc & 0x0f, 0);
	if (c.cc_bad || pc < *start || pc - *start >= range)
		return false;
	if (cie->ci_has_aug) {
		aug_len = cur_uleb(&c);
		if (c.cc_bad || aug_len > c.cc_end - c.cc_p)
			return false;
		c.cc_p += (uintptr_t)aug_len;
	}
	*insns = c.cc_p;
	*end = c.cc_end;
	return true;
}

/* ------------------------------------------------------------------------
 * The CFA program
 * ------------------------------------------------------------------------
 * A row holds one rule per followed register and the CFA's rule.  Offsets
 * are bytes (already multiplied by the data alignment), kept in 32 bits:
 * no frame is 2 GiB.  Expression rules keep where their block (length,
 * then the DWARF expression) starts, relative to the FDE; row_apply
 * evaluates them.
 */
#define RULE_SAME 0       /* the caller's value is the callee's (and the default) */
#define RULE_UNDEF 1      /* no value: for the return address, the outermost frame */
#define RULE_OFFSET 2     /* saved at CFA + off */
#define RULE_VAL_OFFSET 3 /* the value CFA + off */
#define RULE_REG 4        /* in DWARF register reg */
#define RULE_EXPR 5       /* saved at the address an expression computes */
#define RULE_VAL_EXPR 6   /* the value an expression computes */

#define CFA_RULE_NONE 0 /* not yet defined */
#define CFA_RULE_REG 1  /* reg + off */
#define CFA_RULE_EXPR 2 /* an expression */

#define ROW_RA_SIGNED 0x01 /* cr_flags of the CFA rule: the return address is signed */

/* The CFA's rule; a register's is a RULE_* and an offset, or for
 * RULE_REG the DWARF number of the register holding the value. */
typedef struct cfi_cfa_rule {
	uint8_t cr_how;
	uint8_t cr_flags;
	uint16_t cr_reg;
	int32_t cr_off;
} cfi_cfa_rule_t;

typedef struct cfi_row {
	cfi_cfa_rule_t cw_cfa;
	int32_t cw_off[CFI_NSLOTS];
	uint8_t cw_how[CFI_NSLOTS];
} cfi_row_t;

typedef struct cfi_prog {
	cfi_row_t cp_row;                    /* the rules at cp_loc */
	cfi_row_t cp_init;                   /* after the CIE's instructions (restore) */
	cfi_row_t cp_saved[CFI_STATE_DEPTH]; /* DW_CFA_remember_state */
	unsigned cp_depth;
	unsigned cp_ops; /* instructions run so far */
	uint64_t cp_loc; /* address the row describes from */
	uint64_t cp_pc;  /* the PC whose row is wanted */
	uintptr_t cp_fde;
	const cfi_cie_t *cp_cie;
} cfi_prog_t;

#define RUN_END 0  /* the instructions ran out: the row holds for pc */
#define RUN_PAST 1 /* an advance went past pc: the row holds for pc */
#define RUN_FAIL 2 /* malformed, unsupported, or over a bound */

/* n factored by the data alignment, as a byte offset. */
static bool
factored(const cfi_prog_t *p, int64_t n, int32_t *off)
{
	int64_t v;

	if (n > INT32_MAX || n < INT32_MIN ||
	    __builtin_mul_overflow(n, p->cp_cie->ci_data_align, &v) || v > INT32_MAX ||
	    v < INT32_MIN)
		return false;
	*off = (int32_t)v;
	return true;
}

/* Set reg's rule; registers not followed are ignored. */
static void
set_rule(cfi_prog_t *p, uint64_t reg, uint8_t how, int32_t off)
{
	int s = slot_of(reg);

	if (s < 0)
		return;
	p->cp_row.cw_how[s] = how;
	p->cp_row.cw_off[s] = off;
}

/* DW_CFA_restore: reg's rule as the CIE left it. */
static void
restore_rule(cfi_prog_t *p, uint64_t reg)
{
	int s = slot_of(reg);

	if (s < 0)
		return;
	p->cp_row.cw_how[s] = p->cp_init.cw_how[s];
	p->cp_row.cw_off[s] = p->cp_init.cw_off[s];
}

/* Move to address `to`; true when that is past the PC. */
static bool
advance_to(cfi_prog_t *p, uint64_t to)
{
	if (to > p->cp_pc)
		return true;
	p->cp_loc = to;
	return false;
}

static bool
advance_by(cfi_prog_t *p, uint64_t delta)
{
	uint64_t d;

	if (__builtin_mul_overflow(delta, p->cp_cie->ci_code_align, &d) ||
	    p->cp_loc + d < p->cp_loc)
		return true;
	return advance_to(p, p->cp_loc + d);
}

/* An expression block: record where it starts (relative to the FDE), skip it. */
static bool
skip_block(cfi_prog_t *p, cfi_cur_t *c, int32_t *where)
{
	int64_t rel = (int64_t)(c->cc_p - p->cp_fde);
	uint64_t len = cur_uleb(c);

	if (c->cc_bad || len > c->cc_end - c->cc_p || rel > INT32_MAX || rel < INT32_MIN)
		return false;
	*where = (int32_t)rel;
	c->cc_p += (uintptr_t)len;
	return true;
}

/*
 * Run the instructions [c->cc_p, c->cc_end) until an advance passes
 * p->cp_pc.  One instruction per iteration; every operand is read before
 * the checks at the bottom, which see a sticky cursor error.
 */
static int
prog_run(cfi_prog_t *p, cfi_cur_t *c)
{
	uint64_t reg, reg2, u;
	int64_t s;
	int32_t off;
	uint8_t op;
	bool ok;

	while (c->cc_p < c->cc_end) {
		if (++p->cp_ops > CFI_MAX_OPS)
			return RUN_FAIL;
		op = (uint8_t)cur_fixed(c, 1);
		ok = true;
		switch (op & 0xc0) {
		case CFA_ADVANCE_LOC:
			if (advance_by(p, op & 0x3f))
				return RUN_PAST;
			continue;
		case CFA_OFFSET:
			u = cur_uleb(c);
			ok = factored(p, (int64_t)(u > INT32_MAX ? INT64_MAX : u), &off);
			if (ok)
				set_rule(p, op & 0x3f, RULE_OFFSET, off);
			break;
		case CFA_RESTORE:
			restore_rule(p, op & 0x3f);
			continue;
		default:
			switch (op) {
			case CFA_NOP:
				break;
			case CFA_SET_LOC:
				u = cur_pointer(c, p->cp_cie->ci_fde_enc, 0);
				if (c->cc_bad || u < p->cp_loc)
					return RUN_FAIL;
				if (advance_to(p, u))
					return RUN_PAST;
				break;
			case CFA_ADVANCE_LOC1:
			case CFA_ADVANCE_LOC2:
			case CFA_ADVANCE_LOC4:
				u = cur_fixed(c, (size_t)1 << (op - CFA_ADVANCE_LOC1));
				if (c->cc_bad)
					return RUN_FAIL;
				if (advance_by(p, u))
					return RUN_PAST;
				break;
			case CFA_OFFSET_EXTENDED:
			case CFA_VAL_OFFSET:
			case CFA_GNU_NEGATIVE_OFFSET_EXTENDED:
				reg = cur_uleb(c);
				u = cur_uleb(c);
				s = u > INT32_MAX ? INT64_MAX : (int64_t)u;
				ok = factored(p, op == CFA_GNU_NEGATIVE_OFFSET_EXTENDED ? -s : s,
				              &off);
				if (ok)
					set_rule(p, reg,
					         op == CFA_VAL_OFFSET ? RULE_VAL_OFFSET
					                              : RULE_OFFSET,
					         off);
				break;
			case CFA_OFFSET_EXTENDED_SF:
			case CFA_VAL_OFFSET_SF:
				reg = cur_uleb(c);
				ok = factored(p, cur_sleb(c), &off);
				if (ok)
					set_rule(p, reg,
					         op == CFA_VAL_OFFSET_SF ? RULE_VAL_OFFSET
					                                 : RULE_OFFSET,
					         off);
				break;
			case CFA_RESTORE_EXTENDED:
				restore_rule(p, cur_uleb(c));
				break;
			case CFA_UNDEFINED:
				set_rule(p, cur_uleb(c), RULE_UNDEF, 0);
				break;
			case CFA_SAME_VALUE:
				set_rule(p, cur_uleb(c), RULE_SAME, 0);
				break;
			case CFA_REGISTER:
				reg = cur_uleb(c);
				reg2 = cur_uleb(c);
				ok = reg2 <= UINT16_MAX;
				if (ok)
					set_rule(p, reg, RULE_REG, (int32_t)reg2);
				break;
			case CFA_REMEMBER_STATE:
				if (p->cp_depth == CFI_STATE_DEPTH)
					return RUN_FAIL;
				p->cp_saved[p->cp_depth++] = p->cp_row;
				break;
			case CFA_RESTORE_STATE:
				if (p->cp_depth == 0)
					return RUN_FAIL;
				p->cp_row = p->cp_saved[--p->cp_depth];
				break;
			case CFA_DEF_CFA:
			case CFA_DEF_CFA_SF:
				reg = cur_uleb(c);
				if (op == CFA_DEF_CFA) {
					u = cur_uleb(c);
					ok = u <= INT32_MAX;
					off = (int32_t)u;
				} else {
					ok = factored(p, cur_sleb(c), &off);
				}
				ok = ok && reg <= UINT16_MAX;
				if (ok) {
					p->cp_row.cw_cfa.cr_how = CFA_RULE_REG;
					p->cp_row.cw_cfa.cr_reg = (uint16_t)reg;
					p->cp_row.cw_cfa.cr_off = off;
				}
				break;
			case CFA_DEF_CFA_REGISTER:
				/* The offset stays; RISC-V CIEs start with this alone
				 * (offset 0).  Only an expression has no offset. */
				reg = cur_uleb(c);
				ok = reg <= UINT16_MAX && p->cp_row.cw_cfa.cr_how != CFA_RULE_EXPR;
				if (ok) {
					p->cp_row.cw_cfa.cr_how = CFA_RULE_REG;
					p->cp_row.cw_cfa.cr_reg = (uint16_t)reg;
				}
				break;
			case CFA_DEF_CFA_OFFSET:
			case CFA_DEF_CFA_OFFSET_SF:
				if (op == CFA_DEF_CFA_OFFSET) {
					u = cur_uleb(c);
					ok = u <= INT32_MAX;
					off = (int32_t)u;
				} else {
					ok = factored(p, cur_sleb(c), &off);
				}
				ok = ok && p->cp_row.cw_cfa.cr_how == CFA_RULE_REG;
				if (ok)
					p->cp_row.cw_cfa.cr_off = off;
				break;
			case CFA_DEF_CFA_EXPRESSION:
				ok = skip_block(p, c, &off);
				if (ok) {
					p->cp_row.cw_cfa.cr_how = CFA_RULE_EXPR;
					p->cp_row.cw_cfa.cr_off = off;
				}
				break;
			case CFA_EXPRESSION:
			case CFA_VAL_EXPRESSION:
				reg = cur_uleb(c);
				ok = skip_block(p, c, &off);
				if (ok)
					set_rule(p, reg,
					         op == CFA_EXPRESSION ? RULE_EXPR : RULE_VAL_EXPR,
					         off);
				break;
			case CFA_GNU_ARGS_SIZE:
				(void)cur_uleb(c);
				break;
			case CFA_NEGATE_RA_STATE:
				/* Only where return addresses can be signed. */
				ok = ISA_DWARF_RA_PAC_MASK != 0;
				p->cp_row.cw_cfa.cr_flags ^= ROW_RA_SIGNED;
				break;
			default:
				return RUN_FAIL;
			}
		}
		if (!ok || c->cc_bad)
			return RUN_FAIL;
	}
	return c->cc_bad ? RUN_FAIL : RUN_END;
}

/* ------------------------------------------------------------------------
 * Frames
 * ------------------------------------------------------------------------
 */
typedef struct cfi_frame {
	uint64_t cf_pc;
	uint64_t cf_sp;              /* stack pointer, or a lower bound of it */
	uint64_t cf_val[CFI_NSLOTS]; /* followed registers ... */
	uint32_t cf_known;           /* ... bit s: cf_val[s] is known */
	bool cf_exact_pc;            /* cf_pc was interrupted, not returned to */
	const isa_regs_t *cf_regs;   /* every register: the first frame only */
} cfi_frame_t;

static void
frame_first(cfi_frame_t *f, const isa_regs_t *regs)
{
	int s;

	__builtin_memset(f, 0, sizeof(*f));
	f->cf_pc = isa_regs_pc(regs);
	f->cf_sp = isa_regs_sp(regs);
	f->cf_exact_pc = true;
	f->cf_regs = regs;
	for (s = 0; s < CFI_NSLOTS; s++) {
		unsigned idx = isa_of_dwarf[dwarf_of_slot[s]];

		if (idx != 0) {
			f->cf_val[s] = regs->r[idx - 1];
			f->cf_known |= 1u << s;
		}
	}
}

/* The value DWARF register dw has in frame f. */
static bool
reg_value(const cfi_frame_t *f, uint64_t dw, uint64_t *v)
{
	unsigned idx = dw < ISA_DWARF_NREGS ? isa_of_dwarf[dw] : 0;
	int s = slot_of(dw);

	if (idx == ISA_REG_PC + 1) {
		*v = f->cf_pc;
		return true;
	}
	if (s >= 0 && (f->cf_known & (1u << s)) != 0) {
		*v = f->cf_val[s];
		return true;
	}
	if (s < 0 && f->cf_regs != NULL && idx != 0) {
		*v = f->cf_regs->r[idx - 1];
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------------
 * DWARF expressions
 * ------------------------------------------------------------------------
 * CFI uses them where a rule is not "register plus offset": PLT stubs
 * (the CFA depends on the PC's offset in the stub), signal trampolines
 * (every register is read from the saved context), stack realignment.
 * The subset here is what a value computation needs (constants,
 * registers, loads, arithmetic, comparisons, branches); location
 * descriptions (DW_OP_reg*, pieces) and calls are refused.  Bounded by
 * EXPR_MAX_OPS operations and an EXPR_DEPTH-entry stack; loads are nofault.
 */
#define EXPR_MAX_OPS 64
#define EXPR_DEPTH 8

#define OP_ADDR 0x03
#define OP_DEREF 0x06
#define OP_CONST1U 0x08 /* through OP_CONST8S 0x0f: unsigned/signed pairs */
#define OP_CONSTU 0x10
#define OP_CONSTS 0x11
#define OP_DUP 0x12
#define OP_DROP 0x13
#define OP_OVER 0x14
#define OP_PICK 0x15
#define OP_SWAP 0x16
#define OP_ROT 0x17
#define OP_ABS 0x19
#define OP_AND 0x1a
#define OP_DIV 0x1b
#define OP_MINUS 0x1c
#define OP_MOD 0x1d
#define OP_MUL 0x1e
#define OP_NEG 0x1f
#define OP_NOT 0x20
#define OP_OR 0x21
#define OP_PLUS 0x22
#define OP_PLUS_UCONST 0x23
#define OP_SHL 0x24
#define OP_SHR 0x25
#define OP_SHRA 0x26
#define OP_XOR 0x27
#define OP_BRA 0x28
#define OP_EQ 0x29 /* through OP_NE 0x2e: eq ge gt le lt ne */
#define OP_NE 0x2e
#define OP_SKIP 0x2f
#define OP_LIT0 0x30  /* through 0x4f */
#define OP_BREG0 0x70 /* through 0x8f */
#define OP_BREGX 0x92
#define OP_DEREF_SIZE 0x94
#define OP_NOP 0x96

/* Binary operators: b is the top of the stack, a the entry below. */
static bool
expr_binary(uint8_t op, uint64_t a, uint64_t b, uint64_t *r)
{
	switch (op) {
	case OP_AND:
		*r = a & b;
		break;
	case OP_DIV: /* signed, as DWARF defines it */
		if (b == 0 || ((int64_t)a == INT64_MIN && (int64_t)b == -1))
			return false;
		*r = (uint64_t)((int64_t)a / (int64_t)b);
		break;
	case OP_MINUS:
		*r = a - b;
		break;
	case OP_MOD:
		if (b == 0)
			return false;
		*r = a % b;
		break;
	case OP_MUL:
		*r = a * b;
		break;
	case OP_OR:
		*r = a | b;
		break;
	case OP_PLUS:
		*r = a + b;
		break;
	case OP_SHL:
		*r = b >= 64 ? 0 : a << b;
		break;
	case OP_SHR:
		*r = b >= 64 ? 0 : a >> b;
		break;
	case OP_SHRA:
		*r = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b));
		break;
	case OP_XOR:
		*r = a ^ b;
		break;
	case OP_EQ:
		*r = a == b;
		break;
	case OP_EQ + 1: /* ge */
		*r = (int64_t)a >= (int64_t)b;
		break;
	case OP_EQ + 2: /* gt */
		*r = (int64_t)a > (int64_t)b;
		break;
	case OP_EQ + 3: /* le */
		*r = (int64_t)a <= (int64_t)b;
		break;
	case OP_EQ + 4: /* lt */
		*r = (int64_t)a < (int64_t)b;
		break;
	case OP_NE:
		*r = a != b;
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Evaluate the expression block at `at` (ULEB128 length, then the
 * operations) in frame f.  With `push`, `initial` is on the stack first
 * (the CFA, for register rules).  The result is the top of the stack.
 */
static bool
expr_eval(const cfi_frame_t *f, uintptr_t at, bool push, uint64_t initial, uint64_t *out)
{
	uint64_t st[EXPR_DEPTH], a, len, reg;
	unsigned n = 0, ops;
	uintptr_t start;
	cfi_cur_t c, m;
	int64_t off;
	uint8_t op;

	cur_init(&c, at, UINTPTR_MAX);
	len = cur_uleb(&c);
	if (c.cc_bad || len == 0 || c.cc_p + len < c.cc_p)
		return false;
	start = c.cc_p;
	c.cc_end = start + (uintptr_t)len;
	if (push)
		st[n++] = initial;
	for (ops = 0; c.cc_p < c.cc_end; ops++) {
		if (ops == EXPR_MAX_OPS)
			return false;
		op = (uint8_t)cur_fixed(&c, 1);
		/* Operations that push need room; those that pop need entries. */
		if (op >= OP_LIT0 && op < OP_LIT0 + 32) {
			if (n == EXPR_DEPTH)
				return false;
			st[n++] = op - OP_LIT0;
			continue;
		}
		if ((op >= OP_BREG0 && op < OP_BREG0 + 32) || op == OP_BREGX) {
			reg = op == OP_BREGX ? cur_uleb(&c) : (uint64_t)(op - OP_BREG0);
			off = cur_sleb(&c);
			if (c.cc_bad || n == EXPR_DEPTH || !reg_value(f, reg, &a))
				return false;
			st[n++] = a + (uint64_t)off;
			continue;
		}
		switch (op) {
		case OP_ADDR:
		case OP_CONSTU:
		case OP_CONSTS:
		case OP_CONST1U:
		case OP_CONST1U + 1:
		case OP_CONST1U + 2:
		case OP_CONST1U + 3:
		case OP_CONST1U + 4:
		case OP_CONST1U + 5:
		case OP_CONST1U + 6:
		case OP_CONST1U + 7:
			if (op == OP_ADDR)
				a = cur_fixed(&c, sizeof(uintptr_t));
			else if (op == OP_CONSTU)
				a = cur_uleb(&c);
			else if (op == OP_CONSTS)
				a = (uint64_t)cur_sleb(&c);
			else
				a = cur_fixed(&c, (size_t)1 << ((op - OP_CONST1U) / 2));
			/* the signed forms (odd opcodes) sign-extend */
			if (op >= OP_CONST1U && op < OP_CONST1U + 6 && (op & 1) != 0) {
				unsigned bits = 8u << ((op - OP_CONST1U) / 2);

				if ((a >> (bits - 1)) & 1)
					a |= ~(uint64_t)0 << bits;
			}
			if (n == EXPR_DEPTH)
				return false;
			st[n++] = a;
			break;
		case OP_DUP:
		case OP_OVER:
		case OP_PICK:
			a = op == OP_PICK ? cur_fixed(&c, 1) : (op == OP_OVER ? 1 : 0);
			if (n == EXPR_DEPTH || a >= n)
				return false;
			st[n] = st[n - 1 - a];
			n++;
			break;
		case OP_DROP:
			if (n == 0)
				return false;
			n--;
			break;
		case OP_SWAP:
			if (n < 2)
				return false;
			a = st[n - 1];
			st[n - 1] = st[n - 2];
			st[n - 2] = a;
			break;
		case OP_ROT: /* top three: a b c -> c a b */
			if (n < 3)
				return false;
			a = st[n - 1];
			st[n - 1] = st[n - 2];
			st[n - 2] = st[n - 3];
			st[n - 3] = a;
			break;
		case OP_DEREF:
		case OP_DEREF_SIZE:
			a = op == OP_DEREF ? sizeof(uintptr_t) : cur_fixed(&c, 1);
			if (n == 0 || (a != 1 && a != 2 && a != 4 && a != 8))
				return false;
			cur_init(&m, (uintptr_t)st[n - 1], UINTPTR_MAX);
			st[n - 1] = cur_fixed(&m, (size_t)a);
			if (m.cc_bad)
				return false;
			break;
		case OP_ABS:
		case OP_NEG:
		case OP_NOT:
		case OP_PLUS_UCONST:
			a = op == OP_PLUS_UCONST ? cur_uleb(&c) : 0;
			if (n == 0)
				return false;
			if (op == OP_ABS && (int64_t)st[n - 1] < 0)
				st[n - 1] = -st[n - 1];
			else if (op == OP_NEG)
				st[n - 1] = -st[n - 1];
			else if (op == OP_NOT)
				st[n - 1] = ~st[n - 1];
			else if (op == OP_PLUS_UCONST)
				st[n - 1] += a;
			break;
		case OP_SKIP:
		case OP_BRA:
			off = (int16_t)cur_fixed(&c, 2);
			if (op == OP_BRA) {
				if (n == 0)
					return false;
				if (st[--n] == 0)
					break;
			}
			/* A target outside the expression ends it badly. */
			if ((off < 0 && (uint64_t)-off > c.cc_p - start) ||
			    (off > 0 && (uint64_t)off > c.cc_end - c.cc_p))
				return false;
			c.cc_p += (uintptr_t)off;
			break;
		case OP_NOP:
			break;
		default: /* the binary operators, or an operation we refuse */
			if (n < 2 || !expr_binary(op, st[n - 2], st[n - 1], &a))
				return false;
			st[n - 2] = a;
			n--;
			break;
		}
		if (c.cc_bad)
			return false;
	}
	if (c.cc_bad || n == 0)
		return false;
	*out = st[n - 1];
	return true;
}

#define STEP_OK 0   /* *up is the caller */
#define STEP_END 1  /* the CFI says f is the outermost frame, or the stack ends */
#define STEP_FAIL 2 /* no usable CFI for f: try the frame pointer */

/* The caller's registers by the row p holds for f. */
static int
row_apply(const cfi_prog_t *p, const cfi_frame_t *f, cfi_frame_t *up)
{
	const cfi_row_t *row = &p->cp_row;
	isa_nofault_result_t ld;
	uint64_t cfa, v;
	int s, ra;

	if (row->cw_cfa.cr_how == CFA_RULE_REG) {
		if (!reg_value(f, row->cw_cfa.cr_reg, &cfa))
			return STEP_FAIL;
		cfa += (uint64_t)(int64_t)row->cw_cfa.cr_off;
	} else if (row->cw_cfa.cr_how != CFA_RULE_EXPR ||
	           !expr_eval(f, p->cp_fde + (uintptr_t)(intptr_t)row->cw_cfa.cr_off, false, 0,
	                      &cfa)) {
		return STEP_FAIL;
	}
	/* The stack grows down: a caller's frame lies above its callee's.
	 * Only an interrupted frame (the first, or one a signal frame
	 * returns to) may be a leaf that allocated nothing, and not a signal
	 * frame itself; its caller is then not interrupted, so the walk never
	 * stands still twice. */
	if (cfa < f->cf_sp || (cfa == f->cf_sp && (!f->cf_exact_pc || p->cp_cie->ci_signal)))
		return STEP_END;
	ra = slot_of(p->cp_cie->ci_ra);
	if (ra < 0)
		return STEP_FAIL;
	if (row->cw_how[ra] == RULE_UNDEF)
		return STEP_END;

	__builtin_memset(up, 0, sizeof(*up));
	for (s = 0; s < CFI_NSLOTS; s++) {
		switch (row->cw_how[s]) {
		case RULE_SAME:
			if (!reg_value(f, dwarf_of_slot[s], &v))
				continue;
			break;
		case RULE_OFFSET:
			ld = isa_nofault_load64(
			    (uintptr_t)(cfa + (uint64_t)(int64_t)row->cw_off[s]));
			if (ld.fault != 0)
				continue;
			v = ld.value;
			break;
		case RULE_VAL_OFFSET:
			v = cfa + (uint64_t)(int64_t)row->cw_off[s];
			break;
		case RULE_REG:
			if (!reg_value(f, (uint64_t)row->cw_off[s], &v))
				continue;
			break;
		case RULE_EXPR:
		case RULE_VAL_EXPR:
			if (!expr_eval(f, p->cp_fde + (uintptr_t)(intptr_t)row->cw_off[s], true,
			               cfa, &v))
				continue;
			if (row->cw_how[s] == RULE_EXPR) {
				ld = isa_nofault_load64((uintptr_t)v);
				if (ld.fault != 0)
					continue;
				v = ld.value;
			}
			break;
		default: /* undefined */
			continue;
		}
		up->cf_val[s] = v;
		up->cf_known |= 1u << s;
	}
	if ((up->cf_known & (1u << ra)) == 0)
		return STEP_FAIL;
	up->cf_pc = up->cf_val[ra];
	if ((row->cw_cfa.cr_flags & ROW_RA_SIGNED) != 0)
		up->cf_pc &= ~(uint64_t)ISA_DWARF_RA_PAC_MASK;
	if (cfa == f->cf_sp && up->cf_pc == f->cf_pc)
		return STEP_END; /* no progress */
	up->cf_sp = cfa;
	/* The CFA is the caller's stack pointer unless a rule said otherwise. */
	s = slot_of(ISA_DWARF_SP);
	if (s >= 0 && row->cw_how[s] == RULE_SAME) {
		up->cf_val[s] = cfa;
		up->cf_known |= 1u << s;
	}
	up->cf_exact_pc = p->cp_cie->ci_signal;
	up->cf_regs = NULL;
	return STEP_OK;
}

static const isa_cfi_module_t *
module_of(const isa_cfi_module_t *mods, size_t nmods, uint64_t pc)
{
	size_t i;

	for (i = 0; i < nmods; i++)
		if (pc >= mods[i].cm_lo && pc < mods[i].cm_hi)
			return &mods[i];
	return NULL;
}

/* One frame by CFI.  noinline: the program state lives only here. */
static int __attribute__((noinline))
cfi_step(const isa_cfi_module_t *mods, size_t nmods, const cfi_frame_t *f, cfi_frame_t *up)
{
	const isa_cfi_module_t *m;
	cfi_prog_t prog;
	cfi_cie_t cie;
	uintptr_t fde, insns, end;
	uint64_t pc, start;
	cfi_cur_t c;

	pc = f->cf_exact_pc ? f->cf_pc : f->cf_pc - 1;
	m = module_of(mods, nmods, pc);
	if (m == NULL || m->cm_eh_frame_hdr == 0 || !hdr_find_fde(m->cm_eh_frame_hdr, pc, &fde) ||
	    !fde_parse(fde, pc, &cie, &start, &insns, &end))
		return STEP_FAIL;

	__builtin_memset(&prog.cp_row, 0, sizeof(prog.cp_row));
	prog.cp_depth = 0;
	prog.cp_ops = 0;
	prog.cp_loc = start;
	prog.cp_pc = pc;
	prog.cp_fde = fde;
	prog.cp_cie = &cie;
	prog.cp_init = prog.cp_row;
	cur_init(&c, cie.ci_insns, cie.ci_end);
	if (prog_run(&prog, &c) == RUN_FAIL)
		return STEP_FAIL;
	prog.cp_init = prog.cp_row;
	prog.cp_loc = start;
	cur_init(&c, insns, end);
	if (prog_run(&prog, &c) == RUN_FAIL)
		return STEP_FAIL;
	return row_apply(&prog, f, up);
}

/*
 * One frame by the frame-pointer rule: f's frame pointer addresses its frame
 * record.  Only the PC, the frame pointer and (where the ISA fixes it) the
 * stack pointer of the caller are known afterwards.
 */
static bool
fp_step(const cfi_frame_t *f, cfi_frame_t *up)
{
	uint64_t fp, ra, sp;
	int s;

	if (!reg_value(f, ISA_DWARF_FP, &fp) || fp < f->cf_sp || fp - f->cf_sp > CFI_FP_MAX_FRAME)
		return false;
	ra = isa_frame_return_address((uintptr_t)fp);
	sp = fp + ISA_FRAME_CFA_OFF;
	if (ra == 0 || sp <= f->cf_sp)
		return false;
	__builtin_memset(up, 0, sizeof(*up));
	up->cf_pc = ra;
	up->cf_sp = sp;
	if ((s = slot_of(ISA_DWARF_FP)) >= 0) {
		up->cf_val[s] = isa_frame_caller_fp((uintptr_t)fp);
		up->cf_known |= 1u << s;
	}
	if ((s = slot_of(ISA_DWARF_SP)) >= 0 && ISA_FRAME_CFA_EXACT) {
		up->cf_val[s] = sp;
		up->cf_known |= 1u << s;
	}
	return true;
}

int
isa_cfi_walk(const isa_regs_t *regs, const isa_cfi_module_t *mods, size_t nmods, uint64_t *pcs,
             int max)
{
	cfi_frame_t f, up;
	int n, r;

	if (regs == NULL || max <= 0)
		return 0;
	frame_first(&f, regs);
	if (pcs != NULL)
		pcs[0] = f.cf_pc;
	for (n = 1; n < max; n++) {
		r = cfi_step(mods, nmods, &f, &up);
		if (r == STEP_END || (r == STEP_FAIL && !fp_step(&f, &up)) || up.cf_pc == 0)
			break;
		if (pcs != NULL)
			pcs[n] = up.cf_pc;
		f = up;
	}
	return n;
}
