/*
 * isa/isa.h: what every processor module (isa/<isa>/) provides.
 *
 * An ISA module knows instructions, registers and frame layouts of one
 * processor and nothing of any operating system: no OS header, no signal,
 * no ucontext.  Ports (port/<os>/) translate their trap frames into the
 * isa_regs_t below and call these functions; CMake links exactly one
 * module, so the names are the same in every isa/<isa>/.
 *
 * Nofault primitives.  isa_nofault_load{8,16,32,64}, isa_nofault_copy and
 * isa_nofault_copystr live between the symbols isa_nofault_begin and
 * isa_nofault_end.  They are leaf functions that keep no state on the stack,
 * so a port whose trap handler sees a memory fault with the PC inside that
 * range may resume the thread at isa_nofault_pad after storing the faulting
 * address in register ISA_REG_RET0 and a non-zero fault code of its choice
 * in ISA_REG_RET1: the pad only returns, so the caller receives
 * {value = address, fault = code}.  Without a fault they return
 * {value, fault = 0}.  Every function here may run in probe context.
 */
#ifndef DTRACE_ISA_ISA_H
#define DTRACE_ISA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Two integer words: returned in two registers by every supported ABI. */
typedef struct isa_nofault_result {
	uint64_t value; /* the loaded value, the count, or the faulting address */
	uint64_t fault; /* 0, or the port's non-zero fault code: value is the address */
} isa_nofault_result_t;

isa_nofault_result_t isa_nofault_load8(uintptr_t addr);
isa_nofault_result_t isa_nofault_load16(uintptr_t addr);
isa_nofault_result_t isa_nofault_load32(uintptr_t addr);
isa_nofault_result_t isa_nofault_load64(uintptr_t addr);

/* The load of `size` bytes: 1, 2 or 4, anything else 8 (a port's
 * dtrace_port_load refuses other sizes first if it must). */
static inline isa_nofault_result_t
isa_nofault_load(uintptr_t addr, size_t size)
{
	switch (size) {
	case 1:
		return isa_nofault_load8(addr);
	case 2:
		return isa_nofault_load16(addr);
	case 4:
		return isa_nofault_load32(addr);
	default:
		return isa_nofault_load64(addr);
	}
}
/* Copy len bytes; value = len on success.  Both sides are guarded. */
isa_nofault_result_t isa_nofault_copy(void *dst, uintptr_t src, size_t len);
/* Copy up to len bytes, stopping after a NUL; value = bytes copied. */
isa_nofault_result_t isa_nofault_copystr(char *dst, uintptr_t src, size_t len);

/* Text range of the primitives and the landing pad (code labels). */
extern const char isa_nofault_begin[];
extern const char isa_nofault_end[];
extern const char isa_nofault_pad[];

static inline bool
isa_nofault_contains(uintptr_t pc)
{
	return pc >= (uintptr_t)isa_nofault_begin && pc < (uintptr_t)isa_nofault_end;
}

/*
 * Registers of an interrupted thread in the ISA's own numbering
 * (ISA_REG_* of isa_regs.h), filled by the port from its trap frame.
 */
#include "isa_regs.h"

typedef struct isa_regs {
	uint64_t r[ISA_NREGS];
} isa_regs_t;

static inline uint64_t
isa_regs_pc(const isa_regs_t *rp)
{
	return rp->r[ISA_REG_PC];
}

static inline uint64_t
isa_regs_sp(const isa_regs_t *rp)
{
	return rp->r[ISA_REG_SP];
}

static inline uint64_t
isa_regs_fp(const isa_regs_t *rp)
{
	return rp->r[ISA_REG_FP];
}

/*
 * DTrace's uregs[] index for this ISA (the numbering of the D library's
 * R_* constants) to the value in *rp.  *ok is false for an index with no
 * register.
 */
uint64_t isa_uregs_get(const isa_regs_t *rp, unsigned dtrace_reg, bool *ok);

/*
 * At a function's first instruction (an entry probe, before the
 * prologue) or at its return instruction (a return probe, after the
 * epilogue), where the function has no frame: make *rp the caller's
 * registers as they will be when the call returns, as far as a stack walk
 * needs them (the pc the return address: ra on riscv, x30 on aarch64
 * without its pointer-authentication bits, the word at the stack pointer
 * on x86_64, which is then popped).  False when the return address cannot
 * be had.  Probe context: yes (nofault).
 */
bool isa_regs_entry_caller(isa_regs_t *rp);

/* The first integer argument registers, in calling-convention order. */
extern const unsigned isa_arg_regs[];
extern const unsigned isa_narg_regs;

/*
 * Frame-pointer stack walk.  Starting from frame pointer fp (the frame of
 * the function whose caller is first), store up to max return addresses in
 * pcs (or only count them when pcs is NULL) and return how many.  Every load is nofault; the walk stops at a NULL
 * or misaligned frame pointer, a frame pointer that does not grow toward
 * the stack base, a fault, or a zero return address.
 */
int isa_fp_walk(uintptr_t fp, uint64_t *pcs, int max);
/* The frame pointer n frames above fp, by the same steps and stops as
 * isa_fp_walk (so isa_fp_walk(isa_fp_skip(fp, n), ...) drops the first n
 * addresses of isa_fp_walk(fp, ...)); 0 if the walk ends first. */
uintptr_t isa_fp_skip(uintptr_t fp, int n);

/* Return address of the frame whose frame pointer is fp; 0 if unreadable. */
uint64_t isa_frame_return_address(uintptr_t fp);
/* The caller's frame pointer saved in the frame fp; 0 if unreadable. */
uintptr_t isa_frame_caller_fp(uintptr_t fp);

/*
 * Breakpoints.  isa_breakpoint_insn gives the bytes that replace an
 * instruction of `orig_len` bytes (the compressed form where the ISA has
 * one); returns its length, 0 if none fits.  isa_breakpoint_site maps the PC
 * reported by the breakpoint trap to the address of the patched
 * instruction (x86 int3 reports the byte after it).
 */
size_t isa_breakpoint_insn(size_t orig_len, uint8_t *out, size_t outsz);
uintptr_t isa_breakpoint_site(uintptr_t trap_pc);

/* A no-op and a return instruction, for building trampolines. */
extern const uint8_t isa_insn_nop[];
extern const size_t isa_insn_nop_len;
extern const uint8_t isa_insn_ret[];
extern const size_t isa_insn_ret_len;

/* ------------------------------------------------------------------------
 * Instruction probes (isa/<isa>/insn.c)
 * ------------------------------------------------------------------------
 * The ISA half of the instruction-probe engine (inst/): pid probes in a
 * Linux process, fbt and kinst-style probes in a kernel.  The engine finds
 * sites with isa_func_sites(), prepares each with isa_probe_prepare() (not
 * probe context: it may use a decoder library), copies the prepared
 * isa_probe_insn_t into memory every context can read, writes the
 * breakpoint, and when the breakpoint traps calls isa_probe_step() (probe
 * context) to make the thread go on as if the original instruction had run.
 */
#define ISA_INSN_MAXLEN 16

/* isa_insn_t.ii_flags */
#define ISA_INSN_RET 0x01      /* a return (x86 ret/ret imm16) */
#define ISA_INSN_JUMP 0x02     /* an unconditional jump */
#define ISA_INSN_COND 0x04     /* a conditional branch */
#define ISA_INSN_CALL 0x08     /* a call */
#define ISA_INSN_INDIRECT 0x10 /* the target is in a register or memory */
#define ISA_INSN_PCREL 0x20    /* an operand is PC-relative (x86 RIP-relative) */
#define ISA_INSN_TRAP 0x40     /* a breakpoint, ud2, hlt, syscall-like instruction */

typedef struct isa_insn {
	uint8_t ii_len;	    /* length in bytes */
	uint8_t ii_flags;   /* ISA_INSN_* */
	uint64_t ii_target; /* target of a direct jump/branch/call; 0 otherwise */
} isa_insn_t;

/*
 * Decode the instruction whose bytes are code[0..avail) and whose address
 * is pc.  Returns 0, or -1 if the bytes are not a valid instruction or are
 * cut short by avail.  Not probe context.
 */
int isa_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out);

/*
 * The probe sites of a function: code[0..size) is the function's text,
 * loaded at base.  cb(off, kind, arg) is called in address order for every
 * instruction boundary (kind ISA_SITE_INSN) and, in addition, for every
 * return site as DTrace's pid provider takes it on this ISA (kind
 * ISA_SITE_RETURN: returns, and jumps whose target lies outside
 * [base, base + size), which are tail calls).  A non-zero cb return stops
 * the walk and is returned.  Returns -1, having called cb for no return
 * site, when the function cannot be decoded to its end (invalid bytes, or
 * data such as a jump table inside it): the caller then offers only the
 * entry probe and offsets already known to be boundaries.  Not probe
 * context.
 */
#define ISA_SITE_INSN 0
#define ISA_SITE_RETURN 1
typedef int (*isa_site_fn_t)(size_t off, int kind, void *arg);
int isa_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg);

/*
 * How a probed instruction is carried out after its probe fires.  The ISA
 * fills it in isa_probe_prepare(); the engine stores it where probe
 * context can read it and never interprets pi_data.
 *   pi_orig/pi_len: the original instruction;
 *   pi_tramp_len:   bytes of out-of-line code it needs (0: always emulated);
 *   pi_tramp_bp:    when non-zero, the out-of-line code ends with a
 *                   breakpoint at tramp + pi_tramp_bp - 1 whose trap must be
 *                   passed to isa_probe_step_done() (an instruction that
 *                   borrows a scratch register to reach PC-relative data).
 */
typedef struct isa_probe_insn {
	uint8_t pi_orig[ISA_INSN_MAXLEN];
	uint8_t pi_len;
	uint8_t pi_op;	       /* ISA-private: how to step it */
	uint16_t pi_tramp_len; /* out-of-line bytes needed, 0 if none */
	uint16_t pi_tramp_bp;  /* 1 + offset of the closing breakpoint, or 0 */
	uint16_t pi_pad;
	uint64_t pi_data[4];   /* ISA-private operands */
} isa_probe_insn_t;

/*
 * Prepare the instruction at pc (bytes code[0..avail)) for probing.
 * Returns 0, or -1 if no probe may be placed on it (invalid, or an
 * instruction that can neither be emulated nor run elsewhere).  Not probe
 * context.
 */
int isa_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi);

/*
 * The out-of-line code for pi when it is placed at address tramp: writes
 * pi->pi_tramp_len bytes to buf (bufsz at least that) and returns the
 * length, 0 if pi needs none.  It ends by jumping back to pc + pi_len, or
 * with the breakpoint of pi_tramp_bp.  Not probe context.
 */
size_t isa_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
		       size_t bufsz);

/*
 * Probe context: the thread trapped at the breakpoint that replaced pi at
 * pc and its probes have fired; update *regs (PC included) so that it
 * continues as if the original instruction had run.
 *   ISA_STEP_DONE:  emulated; *regs is the state after the instruction.
 *   ISA_STEP_TRAMP: PC now points at the out-of-line code at tramp; when
 *                   pi_tramp_bp is set, *save holds what
 *                   isa_probe_step_done() needs at the closing breakpoint.
 *   ISA_STEP_FAULT: emulating it touched memory that faulted (a stack
 *                   overflow at a call, say): *regs is unchanged but for
 *                   *fault_addr; the port delivers the fault as the
 *                   instruction itself would have.
 * Memory is read and written only through the nofault primitives.
 */
#define ISA_STEP_DONE 0
#define ISA_STEP_TRAMP 1
#define ISA_STEP_FAULT 2
int isa_probe_step(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, isa_regs_t *regs,
		   uint64_t *save, uintptr_t *fault_addr);

/* Probe context: the closing breakpoint of pi's out-of-line code trapped;
 * restore what isa_probe_step() saved and resume at pc + pi_len. */
void isa_probe_step_done(const isa_probe_insn_t *pi, uintptr_t pc, isa_regs_t *regs,
			 uint64_t save);

/* ------------------------------------------------------------------------
 * Jump-patched probes (isa/<isa>/jump.c; the engine is jump/)
 * ------------------------------------------------------------------------
 * A site whose first isa_jump_len bytes can be replaced by a direct jump
 * to a trampoline within isa_jump_reach of it.  The trampoline steps below
 * the stack's red zone, saves every register the ISA's calling convention
 * lets a called function change (and the flags, and the floating-point
 * and vector state a compiled function may touch), calls entry(frame,
 * site) in the thread's own context, restores everything, runs a copy of
 * the instructions the jump replaced and jumps back to the instruction
 * after them.  frame is the saved registers, which isa_jump_frame_regs()
 * turns into the isa_regs_t the thread had at the site.  The copy must be
 * position-independent (the engine takes no PC-relative instruction into
 * it), so the whole trampoline is, and one written copy serves at any
 * address the space maps it.  isa_jump_len 0: this ISA has no such
 * probes (the breakpoint path serves every site).  Not probe context, but
 * isa_jump_frame_regs, which is.
 */
extern const size_t isa_jump_len;
extern const uint64_t isa_jump_reach;

/* The trampoline for site: copy[0..copylen) is what the jump replaces,
 * entry the function it calls.  Returns its length (0 if bufsz is too
 * small) and sets *copy_off to where the copy starts in it: a thread
 * stopped at site + k inside the replaced instructions goes on correctly
 * at tramp + *copy_off + k. */
size_t isa_jump_tramp(uintptr_t site, const uint8_t *copy, size_t copylen, uintptr_t entry,
		      uint8_t *buf, size_t bufsz, size_t *copy_off);

/* The isa_jump_len bytes of the jump at site to tramp; 0 if tramp is out
 * of reach. */
size_t isa_jump_insn(uintptr_t site, uintptr_t tramp, uint8_t *buf, size_t bufsz);

/* Probe context: the registers a thread had at site, from the frame its
 * trampoline saved. */
void isa_jump_frame_regs(const uint64_t *frame, uintptr_t site, isa_regs_t *regs);

/* ------------------------------------------------------------------------
 * Unwinding by call-frame information (isa/cfi_unwind.c)
 * ------------------------------------------------------------------------
 * ustack() of code built without frame pointers.  A module is a text range
 * with the address of its .eh_frame_hdr as mapped in memory (the
 * PT_GNU_EH_FRAME segment).  isa_cfi_walk stores the interrupted PC, then
 * each caller's return address, up to max entries in pcs (or only counts
 * them when pcs is NULL), and returns how many.  It uses the CFI of the
 * module containing each PC, falls back to the frame-pointer rule of
 * isa_regs.h where no CFI covers a PC, reads memory only through the
 * nofault primitives, allocates nothing, and takes a bounded number of
 * steps per frame.  Probe context: yes.
 */
typedef struct isa_cfi_module {
	uintptr_t cm_lo, cm_hi;	   /* text range [lo, hi) */
	uintptr_t cm_eh_frame_hdr; /* .eh_frame_hdr in memory, 0 if none */
} isa_cfi_module_t;

int isa_cfi_walk(const isa_regs_t *regs, const isa_cfi_module_t *mods, size_t nmods, uint64_t *pcs,
		 int max);

/* Short name of the module: "x86_64", "aarch64", "riscv". */
extern const char isa_name[];

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_ISA_ISA_H */
