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

/* Short name of the module: "x86_64", "aarch64", "riscv". */
extern const char isa_name[];

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_ISA_ISA_H */
