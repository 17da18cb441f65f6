/*
 * isa/x86_64/insn_decode_kernel.c: the decoder half of instruction probes
 * for builds that cannot link Zydis: kernel modules (fbt, kinst), and user
 * space where Zydis is missing.  Freestanding, table-driven, probe context:
 * no (isa_insn_decode, isa_func_sites, isa_probe_prepare, isa_probe_tramp).
 *
 * It is a length and class decoder, not a disassembler: it finds where an
 * instruction ends, whether it transfers control (and where, when the
 * target is direct), whether it addresses memory relative to %rip and
 * whether it exists to trap, and it knows the operands of the few
 * instructions insn_step.c emulates.  The tables below are the opcode maps
 * of the Intel SDM volume 2 (appendix A) and the AMD APM volume 3, written
 * out for this file: one 32-bit word per opcode saying which bytes follow
 * it (ModRM, immediates, relative targets) and what class it is, a group
 * table for opcodes whose ModRM.reg picks the instruction, and for the
 * SSE opcodes which mandatory prefixes (none, 66, F3, F2) exist, each with
 * its operand form (memory, register or both).
 *
 * The rule that makes a small decoder safe: REFUSE WHAT IS NOT KNOWN.  An
 * encoding the tables do not list as valid, a prefix combination whose
 * meaning depends on the processor or is ambiguous (an operand-size prefix
 * on a relative branch, a REX prefix not right before the opcode, LOCK on
 * anything but a lockable read-modify-write of memory, SSE opcodes with
 * conflicting mandatory prefixes), and whole encoding spaces left out on
 * purpose (VEX, EVEX, XOP, 3DNow!, the rarer system opcodes) make every
 * function -1.  A refused function gets no probes rather than a probe on a
 * wrong boundary.  tests/isa/kdecode_vs_zydis.c checks, over every function
 * of libc.so.6 and of this tree's objects and over mutated and random
 * bytes, that wherever this decoder accepts, Zydis agrees on the length and
 * class.
 *
 * Probed instructions are prepared as insn_decode.c prepares them (the
 * same X86_OP_* and pi_data of insn_ops.h, stepped by insn_step.c), except
 * for an instruction with a %rip-relative operand that is neither a branch
 * nor emulated: a kernel's trampolines live within +-2 GiB of its text
 * (FreeBSD's kinst allocates them above KERNBASE for this reason), so the
 * copy keeps its own registers and gets its 32-bit displacement rewritten
 * for the trampoline's address (X86_OP_OOL_RIPDISP).  isa_probe_tramp()
 * refuses when the trampoline is out of reach.
 */
#include "isa.h"
#include "insn_ops.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

/* ------------------------------------------------------------------------
 * Tables
 * ------------------------------------------------------------------------
 * Per opcode, in each map: */
#define KX_BAD 0x00000001u   /* invalid in 64-bit mode, or not handled */
#define KX_M 0x00000002u     /* a ModRM byte follows */
#define KX_I8 0x00000004u    /* imm8 */
#define KX_I16 0x00000008u   /* imm16 */
#define KX_IZ 0x00000010u    /* imm16 with 66 (and no REX.W), else imm32 */
#define KX_IV 0x00000020u    /* imm16/32/64 by 66 and REX.W (mov r, imm) */
#define KX_R8 0x00000040u    /* rel8 */
#define KX_R32 0x00000080u   /* rel32 (66 refused: AMD and Intel disagree) */
#define KX_MOFFS 0x00000100u /* a 64-bit absolute address (32 with 67) */
#define KX_ENTER 0x00000200u /* imm16 then imm8 */
#define KX_LOCK 0x00000400u  /* LOCK allowed with a memory operand */
#define KX_MEM 0x00000800u   /* the ModRM operand must be memory */
#define KX_REG 0x00001000u   /* the ModRM operand must be a register */
#define KX_CR 0x00002000u    /* ModRM names registers whatever mod says */
#define KX_SIMD 0x00004000u  /* 66/F3/F2 select the instruction: see kx_cols */
#define KX_NO66 0x00008000u  /* an operand-size prefix makes it ambiguous */
#define KX_ESC 0x00010000u   /* 0F escape */
#define KX_F3 0x00020000u    /* exists only with F3 (popcnt, endbr64) */
#define KX_X87 0x00040000u   /* x87 escape: see kx_x87_ok */
#define KX_NP 0x00080000u    /* exists only without 66, F3 or F2 (emms) */
/* Control-flow class, bits 20-23. */
#define KX_C_SHIFT 20
#define KX_C(x) ((uint32_t)(x) << KX_C_SHIFT)
#define KX_CLASS(a) (((a) >> KX_C_SHIFT) & 0xf)
enum { KC_NONE, KC_JCC, KC_JMP, KC_CALL, KC_RET, KC_FARRET, KC_TRAP, KC_LOOP };
/* ModRM.reg group, bits 24-31 (index into kx_groups). */
#define KX_G(n) (((uint32_t)(n) << 24) | KX_M)
#define KX_GROUP(a) ((a) >> 24)

/* The tables are laid out as the opcode maps are. */
/* clang-format off */
/* Short names for the maps. */
#define _ KX_BAD
#define M KX_M
#define ML (KX_M | KX_LOCK)
#define MM (KX_M | KX_MEM)
#define I8 KX_I8
#define IZ KX_IZ
#define MI8 (KX_M | KX_I8)
#define MIZ (KX_M | KX_IZ)
#define J8 (KX_R8 | KX_C(KC_JCC))
#define J32 (KX_R32 | KX_C(KC_JCC))
#define TRAP KX_C(KC_TRAP)

/* Groups: which ModRM.reg values exist with a memory and with a register
 * operand, which take LOCK (memory only), and which carry an immediate. */
typedef struct kx_group {
	uint8_t g_mem, g_reg, g_lock, g_imm8, g_immz;
} kx_group_t;

enum {
	G_NONE,
	G_ARITH,  /* 80, 81, 83: add or adc sbb and sub xor cmp */
	G_POP,    /* 8F: pop r/m (other reg values are XOP) */
	G_SHIFT,  /* C0 C1 D0-D3: rol ror rcl rcr shl shr (sal alias /6 left out) sar */
	G_MOVI,   /* C6, C7: mov r/m, imm (xabort/xbegin handled apart) */
	G_UNARY8, /* F6: test not neg mul imul div idiv, imm8 for test */
	G_UNARYZ, /* F7: the same with immz for test */
	G_INCDEC, /* FE: inc dec */
	G_FF,     /* FF: inc dec call callf jmp jmpf push */
	G_MOVSR,  /* 8C: mov r/m, sreg */
	G_MOVRS,  /* 8E: mov sreg, r/m (not cs) */
	G_0F00,   /* sldt str lldt ltr verr verw */
	G_PFW,    /* 0F 0D: prefetchw */
	G_PF,     /* 0F 18: prefetchnta t0 t1 t2 */
	G_NOP,    /* 0F 1F: nop r/m */
	G_SETCC,  /* 0F 90-9F */
	G_BT,     /* 0F BA: bt bts btr btc, imm8 */
	G_PSHIFTW, /* 0F 71: psrlw psraw psllw, imm8 */
	G_PSHIFTD, /* 0F 72: psrld psrad pslld, imm8 */
	G_PSHIFTQ, /* 0F 73: psrlq psrldq psllq pslldq, imm8 */
	G_N
};

static const kx_group_t kx_groups[G_N] = {
    [G_ARITH] = {0xff, 0xff, 0x7f, 0, 0},
    [G_POP] = {0x01, 0x01, 0, 0, 0},
    [G_SHIFT] = {0xbf, 0xbf, 0, 0, 0},
    [G_MOVI] = {0x01, 0x01, 0, 0, 0},
    [G_UNARY8] = {0xff, 0xff, 0x0c, 0x03, 0},
    [G_UNARYZ] = {0xff, 0xff, 0x0c, 0, 0x03},
    [G_INCDEC] = {0x03, 0x03, 0x03, 0, 0},
    [G_FF] = {0x7f, 0x57, 0x03, 0, 0},
    [G_MOVSR] = {0x3f, 0x3f, 0, 0, 0},
    [G_MOVRS] = {0x3d, 0x3d, 0, 0, 0},
    [G_0F00] = {0x3f, 0x3f, 0, 0, 0},
    [G_PFW] = {0x02, 0x00, 0, 0, 0},
    [G_PF] = {0x0f, 0x00, 0, 0, 0},
    [G_NOP] = {0x01, 0x01, 0, 0, 0},
    [G_SETCC] = {0x01, 0x01, 0, 0, 0},
    [G_BT] = {0xf0, 0xf0, 0xe0, 0xf0, 0},
    [G_PSHIFTW] = {0x00, 0x54, 0, 0x54, 0},
    [G_PSHIFTD] = {0x00, 0x54, 0, 0x54, 0},
    [G_PSHIFTQ] = {0x00, 0xcc, 0, 0xcc, 0},
};

/* The one-byte map (64-bit mode). */
static const uint32_t kx_map1[256] = {
    /*        0     1     2     3     4     5     6     7 */
    /*        8     9     a     b     c     d     e     f */
    /* 00 */ ML, ML, M, M, I8, IZ, _, _,
    /* 08 */ ML, ML, M, M, I8, IZ, _, KX_ESC,
    /* 10 */ ML, ML, M, M, I8, IZ, _, _,
    /* 18 */ ML, ML, M, M, I8, IZ, _, _,
    /* 20 */ ML, ML, M, M, I8, IZ, _, _,
    /* 28 */ ML, ML, M, M, I8, IZ, _, _,
    /* 30 */ ML, ML, M, M, I8, IZ, _, _,
    /* 38 */ M, M, M, M, I8, IZ, _, _,
    /* 40-4f: REX, never looked up */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _,
    /* 50 push r, 58 pop r */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 60 */ _, _, _, M, _, _, _, _,
    /* 68 */ IZ, MIZ, I8, MI8, 0, 0, 0, 0,
    /* 70 */ J8, J8, J8, J8, J8, J8, J8, J8,
    /* 78 */ J8, J8, J8, J8, J8, J8, J8, J8,
    /* 80 */ KX_G(G_ARITH) | KX_I8, KX_G(G_ARITH) | KX_IZ, _, KX_G(G_ARITH) | KX_I8, M, M, ML, ML,
    /* 88 */ M, M, M, M, KX_G(G_MOVSR), MM, KX_G(G_MOVRS), KX_G(G_POP),
    /* 90 nop/xchg, cbw cwd, fwait, pushf popf, sahf lahf */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, _, 0, 0, 0, 0, 0,
    /* a0 */ KX_MOFFS, KX_MOFFS, KX_MOFFS, KX_MOFFS, 0, 0, 0, 0,
    /* a8 */ I8, IZ, 0, 0, 0, 0, 0, 0,
    /* b0 */ I8, I8, I8, I8, I8, I8, I8, I8,
    /* b8 */ KX_IV, KX_IV, KX_IV, KX_IV, KX_IV, KX_IV, KX_IV, KX_IV,
    /* c0 */ KX_G(G_SHIFT) | KX_I8, KX_G(G_SHIFT) | KX_I8, KX_I16 | KX_C(KC_RET) | KX_NO66,
    KX_C(KC_RET), _, _, KX_G(G_MOVI) | KX_I8, KX_G(G_MOVI) | KX_IZ,
    /* c8 */ KX_ENTER, 0, KX_I16 | KX_C(KC_FARRET), KX_C(KC_FARRET), TRAP, KX_I8 | TRAP, _,
    KX_C(KC_FARRET),
    /* d0 */ KX_G(G_SHIFT), KX_G(G_SHIFT), KX_G(G_SHIFT), KX_G(G_SHIFT), _, _, _, 0,
    /* d8 */ KX_X87, KX_X87, KX_X87, KX_X87, KX_X87, KX_X87, KX_X87, KX_X87,
    /* e0 */ KX_R8 | KX_C(KC_LOOP), KX_R8 | KX_C(KC_LOOP), KX_R8 | KX_C(KC_LOOP),
    KX_R8 | KX_C(KC_LOOP), I8, I8, I8, I8,
    /* e8 */ KX_R32 | KX_C(KC_CALL), KX_R32 | KX_C(KC_JMP), _, KX_R8 | KX_C(KC_JMP), 0, 0, 0, 0,
    /* f0 (prefixes never looked up), int1, hlt, cmc, group 3 */
    _, TRAP, _, _, TRAP, 0, KX_G(G_UNARY8), KX_G(G_UNARYZ),
    /* f8 clc stc cli sti cld std, group 4, group 5 */
    0, 0, 0, 0, 0, 0, KX_G(G_INCDEC), KX_G(G_FF),
};

/*
 * SSE mandatory-prefix columns: two bits per column, none | 66 << 2 |
 * F3 << 4 | F2 << 6, each 0 (no such instruction), 1 (register or memory
 * operand), 2 (memory only) or 3 (register only).
 */
#define C_ANY 1
#define C_MEM 2
#define C_REG 3
#define COLS(np, p66, f3, f2) ((np) | (p66) << 2 | (f3) << 4 | (f2) << 6)
#define S(np, p66, f3, f2) ((uint32_t)COLS(np, p66, f3, f2) << 24 | KX_SIMD | KX_M)
#define S2 S(C_ANY, C_ANY, 0, 0)   /* MMX and its 66 SSE2 form */
#define S66 S(0, C_ANY, 0, 0)      /* only with 66 */
#define S4 S(C_ANY, C_ANY, C_ANY, C_ANY)

/* The two-byte map, 0F xx.  SIMD entries keep their columns where
 * non-SIMD entries keep their group. */
static const uint32_t kx_map0f[256] = {
    /* 00 */ KX_G(G_0F00), M /* group 7: kx_0f01_ok */, M, M, _, TRAP, 0, TRAP,
    /* 08 */ 0, 0, _, TRAP, _, KX_G(G_PFW), _, _,
    /* 10 */ S4, S4, S(C_ANY, C_MEM, C_ANY, C_ANY), S(C_MEM, C_MEM, 0, 0), S2, S2,
    S(C_ANY, C_MEM, C_ANY, 0), S(C_MEM, C_MEM, 0, 0),
    /* 18 */ KX_G(G_PF), _, _, _, _, _, KX_M | KX_F3 /* endbr */, KX_G(G_NOP),
    /* 20 */ KX_M | KX_CR, KX_M | KX_CR, KX_M | KX_CR, KX_M | KX_CR, _, _, _, _,
    /* 28 */ S2, S2, S4, S(C_MEM, C_MEM, 0, 0), S4, S4, S2, S2,
    /* 30 wrmsr rdtsc rdmsr rdpmc sysenter sysexit */ 0, 0, 0, 0, TRAP, TRAP, _, _,
    /* 38 */ _, _, _, _, _, _, _, _, /* 0F 38 and 0F 3A escapes: see below */
    /* 40 cmovcc */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 50 */ S(C_REG, C_REG, 0, 0), S4, S(C_ANY, 0, C_ANY, 0), S(C_ANY, 0, C_ANY, 0), S2, S2,
    S2, S2,
    /* 58 */ S4, S4, S4, S(C_ANY, C_ANY, C_ANY, 0), S4, S4, S4, S4,
    /* 60 */ S2, S2, S2, S2, S2, S2, S2, S2,
    /* 68 */ S2, S2, S2, S2, S66, S66, S2, S(C_ANY, C_ANY, C_ANY, 0),
    /* 70 */ S4 | KX_I8, KX_G(G_PSHIFTW) | KX_SIMD | KX_I8, KX_G(G_PSHIFTD) | KX_SIMD | KX_I8,
    KX_G(G_PSHIFTQ) | KX_SIMD | KX_I8, S2, S2, S2, KX_NP /* emms */,
    /* 78 */ _, _, _, _, S(0, C_ANY, 0, C_ANY), S(0, C_ANY, 0, C_ANY), S(C_ANY, C_ANY, C_ANY, 0),
    S(C_ANY, C_ANY, C_ANY, 0),
    /* 80 jcc rel32 */ J32, J32, J32, J32, J32, J32, J32, J32,
    J32, J32, J32, J32, J32, J32, J32, J32,
    /* 90 setcc */ KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC),
    KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC),
    KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC), KX_G(G_SETCC),
    /* a0 push fs, pop fs, cpuid, bt, shld, shld, -, - */ 0, 0, 0, M, MI8, M, _, _,
    /* a8 push gs, pop gs, rsm, bts, shrd, shrd, group 15, imul */ 0, 0, 0, ML, MI8, M,
    M /* kx_0fae_ok */, M,
    /* b0 */ ML, ML, MM, ML, MM, MM, M, M,
    /* b8 */ KX_M | KX_F3, _, KX_G(G_BT), ML, M, M, M, M,
    /* c0 */ ML, ML, S4 | KX_I8, S(C_MEM, 0, 0, 0), S2 | KX_I8, S(C_REG, C_REG, 0, 0) | KX_I8,
    S2 | KX_I8, M /* group 9: kx_0fc7_ok */,
    /* c8 bswap */ 0, 0, 0, 0, 0, 0, 0, 0,
    /* d0 */ S(0, C_ANY, 0, C_ANY), S2, S2, S2, S2, S2, S(0, C_ANY, C_REG, C_REG),
    S(C_REG, C_REG, 0, 0),
    /* d8 */ S2, S2, S2, S2, S2, S2, S2, S2,
    /* e0 */ S2, S2, S2, S2, S2, S2, S(0, C_ANY, C_ANY, C_ANY), S(C_MEM, C_MEM, 0, 0),
    /* e8 */ S2, S2, S2, S2, S2, S2, S2, S2,
    /* f0 */ S(0, 0, 0, C_MEM), S2, S2, S2, S2, S2, S2, S(C_REG, C_REG, 0, 0),
    /* f8 */ S2, S2, S2, S2, S2, S2, S2, _ /* ud0 */,
};

/* 0F 38 xx (no immediate). */
static const uint32_t kx_map0f38[256] = {
    /* 00 */ S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, _, _, _, _,
    /* 10 */ S66, _, _, _, S66, S66, _, S66, _, _, _, _, S2, S2, S2, _,
    /* 20 */ S66, S66, S66, S66, S66, S66, _, _, S66, S66, S(0, C_MEM, 0, 0), S66, _, _, _, _,
    /* 30 */ S66, S66, S66, S66, S66, S66, _, S66, S66, S66, S66, S66, S66, S66, S66, S66,
    /* 40 */ S66, S66, _, _, _, _, _, _, _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 50 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 60 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 70 */
    /* 80 invept invvpid invpcid */
    S(0, C_MEM, 0, 0), S(0, C_MEM, 0, 0), S(0, C_MEM, 0, 0), _, _, _, _, _,
    _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 90 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* a0 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* b0 */
    /* c0 */ _, _, _, _, _, _, _, _,
    /* c8 sha1nexte sha1msg1 sha1msg2 sha256rnds2 sha256msg1 sha256msg2 */
    S(C_ANY, 0, 0, 0), S(C_ANY, 0, 0, 0), S(C_ANY, 0, 0, 0), S(C_ANY, 0, 0, 0),
    S(C_ANY, 0, 0, 0), S(C_ANY, 0, 0, 0), _, _,
    /* d0 */ _, _, _, _, _, _, _, _, _, _, _, S66, S66, S66, S66, S66,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* e0 */
    /* f0 movbe / crc32, f6 adcx / adox: kx_0f38f_ok */
    M, M, _, _, _, _, M, _, _, _, _, _, _, _, _, _,
};

/* 0F 3A xx (imm8 always). */
#define T66 (S66 | KX_I8)
static const uint32_t kx_map0f3a[256] = {
    /* 00 */ _, _, _, _, _, _, _, _, T66, T66, T66, T66, T66, T66, T66, S2 | KX_I8,
    /* 10 */ _, _, _, _, T66, T66, T66, T66, _, _, _, _, _, _, _, _,
    /* 20 */ T66, T66, T66, _, _, _, _, _, _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 30 */
    /* 40 */ T66, T66, T66, _, T66, _, _, _, _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 50 */
    /* 60 */ T66, T66, T66, T66, _, _, _, _, _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 70 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 80 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* 90 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* a0 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* b0 */
    /* c0 */ _, _, _, _, _, _, _, _, _, _, _, _, S(C_ANY, 0, 0, 0) | KX_I8, _, _, _,
    /* d0 */ _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, T66,
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* e0 */
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, /* f0 */
};

#undef _
#undef M
#undef ML
#undef MM
#undef I8
#undef IZ
#undef MI8
#undef MIZ
#undef J8
#undef J32
#undef TRAP
#undef S
#undef S2
#undef S66
#undef S4
#undef T66

/* clang-format on */

enum { KX_MAP1, KX_MAP0F, KX_MAP0F38, KX_MAP0F3A };

/* ------------------------------------------------------------------------
 * Decoding one instruction
 * ------------------------------------------------------------------------ */
typedef struct kx {
	uint8_t len;
	uint8_t map, op;
	uint8_t rex;                 /* 0: none */
	uint8_t p66, p67, lock, seg; /* seg: the last segment prefix byte, or 0 */
	uint8_t rep;                 /* the last of F2/F3, or 0 */
	uint8_t nf2, nf3;
	uint8_t has_modrm, mod, reg, rm; /* reg and rm without REX */
	uint8_t modrm_off;
	uint8_t has_sib, sib;
	uint8_t disp_off, disp_len;
	int32_t disp;
	uint8_t imm_off, imm_len;
	int64_t imm; /* the first immediate, sign-extended */
	uint32_t attr;
	uint8_t cls; /* KC_* */
} kx_t;

static uint64_t
kx_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int64_t
kx_sext(uint64_t v, unsigned bytes)
{
	unsigned sh = 64 - 8 * bytes;

	return bytes >= 8 ? (int64_t)v : (int64_t)(v << sh) >> sh;
}

static bool
kx_memform(const kx_t *k)
{
	return k->has_modrm && k->mod != 3 && !(k->attr & KX_CR);
}

/* A register operand in ModRM.rm or a memory one, as the table wants. */
static bool
kx_form_ok(const kx_t *k, unsigned form)
{
	switch (form) {
	case C_ANY:
		return true;
	case C_MEM:
		return kx_memform(k);
	case C_REG:
		return k->mod == 3;
	default:
		return false;
	}
}

/* x87 (D8-DF): every memory form but the reserved ones, and the register
 * forms the manuals list (aliases and reserved slots left out). */
static bool
kx_x87_ok(const kx_t *k)
{
	static const uint8_t mem_ok[8] = {0xff, 0xfd, 0xff, 0xaf, 0xff, 0xdf, 0xff, 0xff};
	/* register forms: one bit per ModRM low six bits, per opcode */
	static const uint64_t reg_ok[8] = {
	    0xffffffffffffffffULL, /* d8: fadd fmul fcom fcomp fsub fsubr fdiv fdivr */
	    0xffff7f330001ffffULL, /* d9: fld fxch fnop fchs fabs ftst fxam, constants, f0-ff */
	    0x00000200ffffffffULL, /* da: fcmovb fcmove fcmovbe fcmovu, fucompp */
	    0x00ffff0cffffffffULL, /* db: fcmovn*, fnclex fninit, fucomi fcomi */
	    0xffffffff0000ffffULL, /* dc: fadd fmul, fsubr fsub fdivr fdiv to st(i) */
	    0x0000ffffffff00ffULL, /* dd: ffree, fst fstp, fucom fucomp */
	    0xffffffff0200ffffULL, /* de: faddp fmulp, fcompp, fsubrp fsubp fdivrp fdivp */
	    0x00ffff0100000000ULL, /* df: fnstsw ax, fucomip fcomip */
	};
	unsigned i = k->op - 0xd8;

	if (k->mod != 3)
		return (mem_ok[i] >> k->reg) & 1;
	return (reg_ok[i] >> ((k->reg << 3) | k->rm)) & 1;
}

/* 0F 01 (group 7): the memory forms but /5, and the register forms a
 * kernel uses. */
static bool
kx_0f01_ok(const kx_t *k)
{
	uint8_t modrm = (uint8_t)(0xc0 | k->reg << 3 | k->rm);

	if (k->rep != 0 || k->p66)
		return false;
	if (k->mod != 3)
		return k->reg != 5;
	switch (modrm) {
	case 0xc1:
	case 0xc2:
	case 0xc3:
	case 0xc4: /* vmcall vmlaunch vmresume vmxoff */
	case 0xc8:
	case 0xc9: /* monitor mwait */
	case 0xca:
	case 0xcb: /* clac stac */
	case 0xd0:
	case 0xd1: /* xgetbv xsetbv */
	case 0xd6: /* xtest (xend, a branch, left out) */
	case 0xf8:
	case 0xf9: /* swapgs rdtscp */
		return true;
	default:
		/* smsw r (/4) and lmsw r (/6) */
		return k->reg == 4 || k->reg == 6;
	}
}

/* 0F AE (group 15). */
static bool
kx_0fae_ok(const kx_t *k)
{
	if (k->mod != 3) {
		if (k->rep != 0)
			return false;
		return !k->p66 || k->reg >= 6; /* 66: clwb, clflushopt */
	}
	if (k->rep == 0xf3 && !k->p66)
		return k->reg <= 3;                   /* rdfsbase rdgsbase wrfsbase wrgsbase */
	return k->rep == 0 && !k->p66 && k->reg >= 5; /* lfence mfence sfence */
}

/* 0F C7 (group 9). */
static bool
kx_0fc7_ok(const kx_t *k)
{
	if (k->mod != 3) {
		if (k->rep != 0 || k->p66)
			return false;
		/* cmpxchg8b/16b; xrstors xsavec xsaves; vmptrld vmptrst */
		return k->reg == 1 || k->reg >= 3;
	}
	if (k->rep == 0xf3)
		return k->reg == 7 && !k->p66;              /* rdpid */
	return k->rep == 0 && (k->reg == 6 || k->reg == 7); /* rdrand rdseed */
}

/* 0F 38 F0/F1 (movbe, crc32) and F6 (adcx, adox). */
static bool
kx_0f38f_ok(const kx_t *k)
{
	if (k->nf2 && k->nf3)
		return false;
	if (k->op == 0xf6)
		return (k->p66 && k->rep == 0) || (k->rep == 0xf3 && !k->p66);
	if (k->rep == 0xf2)
		return true;                 /* crc32, 66 is its operand size */
	return k->rep == 0 && kx_memform(k); /* movbe */
}

static const uint32_t *const kx_maps[4] = {kx_map1, kx_map0f, kx_map0f38, kx_map0f3a};

/* Is the instruction valid as the tables describe it? */
static bool
kx_valid(kx_t *k)
{
	uint32_t a = k->attr;
	const kx_group_t *g;
	unsigned g_i;

	if (a & KX_SIMD) {
		unsigned col = k->rep == 0xf3 ? 2 : k->rep == 0xf2 ? 3 : k->p66 ? 1 : 0;
		uint32_t cols = a >> 24;

		/* Two mandatory prefixes at once are ambiguous. */
		if ((k->nf2 && k->nf3) || (k->rep != 0 && k->p66))
			return false;
		if (KX_GROUP(a) != 0 && (k->map == KX_MAP0F && k->op >= 0x71 && k->op <= 0x73)) {
			/* MMX/SSE shifts by immediate: np or 66, register form */
			static const uint8_t grp[3] = {G_PSHIFTW, G_PSHIFTD, G_PSHIFTQ};
			uint8_t mask;

			g = &kx_groups[grp[k->op - 0x71]];
			if (k->rep != 0 || k->mod != 3)
				return false;
			mask = g->g_reg;
			if (k->op == 0x73 && !k->p66)
				mask &= 0x44; /* psrldq, pslldq need 66 */
			return (mask >> k->reg) & 1;
		}
		return kx_form_ok(k, (cols >> (2 * col)) & 3);
	}
	if ((a & KX_F3) && (k->rep != 0xf3 || k->nf2))
		return false;
	if ((a & KX_NP) && (k->rep != 0 || k->p66))
		return false;
	if (k->map == KX_MAP1 && (a & KX_X87))
		return kx_x87_ok(k);
	if (k->map == KX_MAP0F) {
		switch (k->op) {
		case 0x01:
			return kx_0f01_ok(k);
		case 0xae:
			return kx_0fae_ok(k);
		case 0xc7:
			return kx_0fc7_ok(k);
		case 0x1e: /* endbr64, endbr32 only */
			return k->mod == 3 && k->reg == 7 && (k->rm == 2 || k->rm == 3) &&
			       !k->p66 && k->rex == 0;
		case 0x20:
		case 0x22: { /* mov cr: cr0 cr2 cr3 cr4, cr8 */
			unsigned cr = k->reg | ((k->rex & 4u) << 1);

			return cr == 0 || cr == 2 || cr == 3 || cr == 4 || cr == 8;
		}
		case 0x21:
		case 0x23: /* mov dr: dr0-dr7 */
			return (k->rex & 4u) == 0;
		default:
			break;
		}
	}
	if (k->map == KX_MAP0F38)
		return kx_0f38f_ok(k);
	if (k->has_modrm) {
		if ((a & KX_MEM) && !kx_memform(k))
			return false;
		if ((a & KX_REG) && k->mod != 3)
			return false;
	}
	g_i = KX_GROUP(a);
	if (g_i != 0 && !(a & KX_SIMD)) {
		g = &kx_groups[g_i];
		if (!(((k->mod == 3 ? g->g_reg : g->g_mem) >> k->reg) & 1))
			return false;
	}
	return true;
}

/* May LOCK prefix it?  A read-modify-write of memory that takes it. */
static bool
kx_lock_ok(const kx_t *k)
{
	unsigned g_i = KX_GROUP(k->attr);

	if (!kx_memform(k))
		return false;
	if (g_i != 0 && !(k->attr & KX_SIMD))
		return (kx_groups[g_i].g_lock >> k->reg) & 1;
	if (k->map == KX_MAP0F && k->op == 0xc7)
		return k->reg == 1 && k->rep == 0 && !k->p66; /* cmpxchg8b/16b */
	return (k->attr & KX_LOCK) != 0;
}

/* Decode one instruction into *k.  False: invalid, cut short or refused. */
static bool
kx_decode(const uint8_t *b, size_t avail, kx_t *k)
{
	size_t max = avail < 15 ? avail : 15;
	size_t i = 0;
	uint32_t a;
	uint8_t c;

	memset(k, 0, sizeof(*k));
	/* Legacy prefixes, any order, repeats allowed. */
	for (;; i++) {
		if (i >= max)
			return false;
		c = b[i];
		if (c == 0x66)
			k->p66 = 1;
		else if (c == 0x67)
			k->p67 = 1;
		else if (c == 0xf0)
			k->lock = 1;
		else if (c == 0xf2)
			k->rep = c, k->nf2++;
		else if (c == 0xf3)
			k->rep = c, k->nf3++;
		else if (c == 0x2e || c == 0x36 || c == 0x3e || c == 0x26 || c == 0x64 || c == 0x65)
			k->seg = c;
		else
			break;
	}
	/* REX, only right before the opcode. */
	if ((c & 0xf0) == 0x40) {
		k->rex = c;
		if (++i >= max)
			return false;
		c = b[i];
		if ((c & 0xf0) == 0x40 || c == 0x66 || c == 0x67 || c == 0xf0 || c == 0xf2 ||
		    c == 0xf3 || c == 0x2e || c == 0x36 || c == 0x3e || c == 0x26 || c == 0x64 ||
		    c == 0x65)
			return false;
	}
	/* Opcode.  VEX (c4 c5), EVEX (62) and XOP (8f with reg != 0) are
	 * refused: kernels are built without them. */
	if (c == 0xc4 || c == 0xc5 || c == 0x62)
		return false;
	k->map = KX_MAP1;
	if (c == 0x0f) {
		if (++i >= max)
			return false;
		c = b[i];
		if (c == 0x38 || c == 0x3a) {
			k->map = c == 0x38 ? KX_MAP0F38 : KX_MAP0F3A;
			if (++i >= max)
				return false;
			c = b[i];
		} else {
			k->map = KX_MAP0F;
		}
	}
	k->op = c;
	i++;
	a = kx_maps[k->map][c];
	if (a & KX_BAD)
		return false;
	/* The 0F 38/3A escapes are table holes in the 0F map: never here. */
	k->attr = a;
	k->cls = (uint8_t)KX_CLASS(a);
	if (a & KX_X87)
		a |= KX_M, k->attr = a;

	/* ModRM, SIB, displacement. */
	if (a & KX_M) {
		if (i >= max)
			return false;
		c = b[i];
		k->has_modrm = 1;
		k->modrm_off = (uint8_t)i++;
		k->mod = c >> 6;
		k->reg = (c >> 3) & 7;
		k->rm = c & 7;
		if (kx_memform(k)) {
			if (k->rm == 4) {
				if (i >= max)
					return false;
				k->has_sib = 1;
				k->sib = b[i++];
			}
			if (k->mod == 1)
				k->disp_len = 1;
			else if (k->mod == 2 || (k->mod == 0 && k->rm == 5) ||
			         (k->mod == 0 && k->has_sib && (k->sib & 7) == 5))
				k->disp_len = 4;
			if (k->disp_len != 0) {
				if (i + k->disp_len > max)
					return false;
				k->disp_off = (uint8_t)i;
				k->disp = (int32_t)kx_sext(kx_le(b + i, k->disp_len), k->disp_len);
				i += k->disp_len;
			}
		}
		/* 8F with reg != 0 is an XOP prefix. */
		if (k->map == KX_MAP1 && k->op == 0x8f && k->reg != 0)
			return false;
	}

	/* Immediates. */
	{
		unsigned n = 0, n2 = 0;
		bool w = (k->rex & 8) != 0;
		const kx_group_t *g =
		    KX_GROUP(a) != 0 && !(a & KX_SIMD) ? &kx_groups[KX_GROUP(a)] : NULL;

		if (a & KX_I8)
			n = 1;
		else if (a & KX_I16)
			n = 2;
		else if (a & KX_IZ)
			n = k->p66 && !w ? 2 : 4;
		else if (a & KX_IV)
			n = w ? 8 : k->p66 ? 2 : 4;
		else if (a & KX_MOFFS)
			n = k->p67 ? 4 : 8;
		else if (a & KX_ENTER)
			n = 2, n2 = 1;
		else if (a & KX_R8)
			n = 1;
		else if (a & KX_R32)
			n = 4;
		if (g != NULL && k->has_modrm) {
			if ((g->g_imm8 >> k->reg) & 1)
				n = 1;
			else if ((g->g_immz >> k->reg) & 1)
				n = k->p66 && !w ? 2 : 4;
		}
		/* C7 F8 cw/cd xbegin (C6 F8 ib xabort is refused below). */
		if (k->map == KX_MAP1 && (k->op == 0xc6 || k->op == 0xc7) && k->mod == 3 &&
		    k->reg == 7 && k->rm == 0) {
			if (k->op == 0xc7) {
				if (k->p66)
					return false;
				n = 4;
				k->cls = KC_JCC; /* an abort target, taken later */
				k->attr |= KX_R32;
			} else {
				n = 1;
			}
		}
		if (i + n + n2 > max)
			return false;
		if (n != 0) {
			k->imm_off = (uint8_t)i;
			k->imm_len = (uint8_t)(n + n2);
			k->imm = kx_sext(kx_le(b + i, n), n);
		}
		i += n + n2;
	}
	k->len = (uint8_t)i;

	/* Validity.  xbegin is known; xabort is left out. */
	if (k->map == KX_MAP1 && (k->op == 0xc6 || k->op == 0xc7) && k->mod == 3 && k->reg == 7 &&
	    k->rm == 0)
		return k->op == 0xc7 && !k->lock;
	if (!kx_valid(k))
		return false;
	if (k->lock && !kx_lock_ok(k))
		return false;
	/* Relative branches with an operand-size prefix: rel16 on AMD,
	 * ignored on Intel.  Refused, as is 66 on ret imm16 and the like. */
	if (k->p66 && (a & (KX_R8 | KX_R32 | KX_NO66)))
		return false;
	return true;
}

/* Full 4-bit register numbers of the ModRM fields. */
static unsigned
kx_rm(const kx_t *k)
{
	return k->rm | ((k->rex & 1u) << 3);
}

static unsigned
kx_regf(const kx_t *k)
{
	return k->reg | ((k->rex & 4u) << 1);
}

static bool
kx_riprel(const kx_t *k)
{
	return kx_memform(k) && k->mod == 0 && k->rm == 5;
}

/* The class as insn_decode.c derives it from Zydis. */
static uint8_t
kx_flags(const kx_t *k, uintptr_t pc, uint64_t *target)
{
	uint8_t f = 0;
	uint64_t next = (uint64_t)pc + k->len;

	*target = 0;
	if (kx_riprel(k))
		f |= ISA_INSN_PCREL;
	switch (k->cls) {
	case KC_TRAP:
		f |= ISA_INSN_TRAP;
		break;
	case KC_RET:
		f |= ISA_INSN_RET;
		break;
	case KC_FARRET:
		f |= ISA_INSN_JUMP | ISA_INSN_INDIRECT;
		break;
	case KC_JMP:
		f |= ISA_INSN_JUMP;
		*target = next + (uint64_t)k->imm;
		break;
	case KC_CALL:
		f |= ISA_INSN_CALL;
		*target = next + (uint64_t)k->imm;
		break;
	case KC_JCC:
	case KC_LOOP:
		f |= ISA_INSN_COND;
		*target = next + (uint64_t)k->imm;
		break;
	default:
		break;
	}
	if (k->map == KX_MAP1 && k->op == 0xff) {
		if (k->reg == 2 || k->reg == 3)
			f |= ISA_INSN_CALL | ISA_INSN_INDIRECT;
		else if (k->reg == 4 || k->reg == 5)
			f |= ISA_INSN_JUMP | ISA_INSN_INDIRECT;
	}
	return f;
}

int
isa_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out)
{
	kx_t k;

	if (code == NULL || !kx_decode(code, avail, &k))
		return -1;
	out->ii_len = k.len;
	out->ii_flags = kx_flags(&k, pc, &out->ii_target);
	return 0;
}

/* ------------------------------------------------------------------------
 * Function sites: the rules of insn_decode.c (DTrace's pid provider on x86,
 * illumos dt_pid_create_return_probe), on this decoder.
 * ------------------------------------------------------------------------ */
static bool
kx_is_indirect_jmp(const kx_t *k)
{
	return k->map == KX_MAP1 && k->op == 0xff && k->reg == 4;
}

static bool
kx_is_near_ret(const kx_t *k)
{
	return k->cls == KC_RET;
}

static bool
kx_is_jcc(const kx_t *k)
{
	return (k->map == KX_MAP1 && (k->op & 0xf0) == 0x70) ||
	       (k->map == KX_MAP0F && (k->op & 0xf0) == 0x80);
}

/* mov %rbp,%rsp in either encoding (48 89 ec, 48 8b e5). */
static bool
kx_is_mov_rbp_rsp(const kx_t *k)
{
	if (k->map != KX_MAP1 || k->mod != 3 || !(k->rex & 8) || (k->op != 0x89 && k->op != 0x8b))
		return false;
	if (k->op == 0x89)
		return kx_rm(k) == 4 && kx_regf(k) == 5;
	return kx_regf(k) == 4 && kx_rm(k) == 5;
}

static bool
kx_is_pop_rbp(const kx_t *k)
{
	if (k->map != KX_MAP1 || k->p66)
		return false;
	if (k->op == 0x5d)
		return (k->rex & 1) == 0;
	return k->op == 0x8f && k->mod == 3 && kx_rm(k) == 5;
}

static bool
kx_leaves(const kx_t *k, uintptr_t pc, uintptr_t base, size_t size)
{
	uint64_t t;

	if (!(k->cls == KC_JMP || kx_is_jcc(k)))
		return false;
	t = (uint64_t)pc + k->len + (uint64_t)k->imm;
	return t < base || t - base >= size;
}

int
isa_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg)
{
	bool jump_table = false;
	bool prev_leave = false, prev_pop_rbp = false, prev2_mov = false, prev_mov = false;
	size_t off;
	kx_t k;
	int rc;

	for (off = 0; off < size; off += k.len) {
		if (!kx_decode(code + off, size - off, &k))
			return -1;
		if (kx_is_indirect_jmp(&k))
			jump_table = true;
	}
	for (off = 0; off < size; off += k.len) {
		bool ret_site;

		(void)kx_decode(code + off, size - off, &k);
		if ((rc = cb(off, ISA_SITE_INSN, arg)) != 0)
			return rc;
		if (!jump_table)
			ret_site = kx_is_near_ret(&k) || kx_leaves(&k, base + off, base, size);
		else
			ret_site =
			    kx_is_near_ret(&k) && (prev_leave || (prev_pop_rbp && prev2_mov));
		if (ret_site && (rc = cb(off, ISA_SITE_RETURN, arg)) != 0)
			return rc;
		prev2_mov = prev_mov;
		prev_mov = kx_is_mov_rbp_rsp(&k);
		prev_leave = k.map == KX_MAP1 && k.op == 0xc9;
		prev_pop_rbp = kx_is_pop_rbp(&k);
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Preparing a probed instruction
 * ------------------------------------------------------------------------ */

/* isa_regs_t index of a 4-bit general register number. */
static const uint8_t kx_gpr[16] = {
    ISA_REG_RAX, ISA_REG_RCX, ISA_REG_RDX, ISA_REG_RBX, ISA_REG_RSP, ISA_REG_RBP,
    ISA_REG_RSI, ISA_REG_RDI, ISA_REG_R8,  ISA_REG_R9,  ISA_REG_R10, ISA_REG_R11,
    ISA_REG_R12, ISA_REG_R13, ISA_REG_R14, ISA_REG_R15,
};

static int
kx_prepare_ool(isa_probe_insn_t *pi)
{
	pi->pi_op = X86_OP_OOL;
	pi->pi_tramp_len = (uint16_t)(pi->pi_len + X86_JMP_ABS_LEN);
	pi->pi_tramp_bp = 0;
	return 0;
}

/* jmp/call through a register or a 64-bit word in memory. */
static bool
kx_prepare_indirect(const kx_t *k, uintptr_t pc, isa_probe_insn_t *pi)
{
	uint64_t *v = pi->pi_data;

	if (k->p66)
		return false;
	if (k->mod == 3) {
		v[X86_IND_DISP] = 0;
		v[X86_IND_BASE] = kx_gpr[kx_rm(k)];
		v[X86_IND_INDEX] = X86_NOREG;
		v[X86_IND_MODE] = 0;
		return true;
	}
	/* %fs/%gs need the segment base, which the register image lacks. */
	if (k->p67 || k->seg == 0x64 || k->seg == 0x65)
		return false;
	if (kx_riprel(k)) {
		v[X86_IND_DISP] = (uint64_t)pc + k->len + (uint64_t)(int64_t)k->disp;
		v[X86_IND_BASE] = X86_NOREG;
		v[X86_IND_INDEX] = X86_NOREG;
		v[X86_IND_MODE] = X86_IND_MEM | 1;
		return true;
	}
	v[X86_IND_DISP] = (uint64_t)(int64_t)k->disp;
	v[X86_IND_BASE] = X86_NOREG;
	v[X86_IND_INDEX] = X86_NOREG;
	v[X86_IND_MODE] = X86_IND_MEM | 1;
	if (k->has_sib) {
		unsigned base = (k->sib & 7) | ((k->rex & 1u) << 3);
		unsigned index = ((k->sib >> 3) & 7) | ((k->rex & 2u) << 2);

		if (!((k->sib & 7) == 5 && k->mod == 0))
			v[X86_IND_BASE] = kx_gpr[base];
		if (index != 4)
			v[X86_IND_INDEX] = kx_gpr[index];
		v[X86_IND_MODE] = X86_IND_MEM | (1u << (k->sib >> 6));
	} else {
		v[X86_IND_BASE] = kx_gpr[kx_rm(k)];
	}
	return true;
}

/* Branches: 0 prepared, -1 refused, 1 not a branch. */
static int
kx_prepare_branch(const kx_t *k, uintptr_t pc, isa_probe_insn_t *pi)
{
	uint64_t next = (uint64_t)pc + k->len;

	switch (k->cls) {
	case KC_RET:
		if (k->p66)
			return kx_prepare_ool(pi);
		pi->pi_op = X86_OP_RET;
		pi->pi_data[0] = k->op == 0xc2 ? ((uint64_t)k->imm & 0xffff) : 0;
		return 0;
	case KC_FARRET:
		return -1;
	case KC_JMP:
	case KC_CALL:
		pi->pi_op = k->cls == KC_CALL ? X86_OP_CALL : X86_OP_JMP;
		pi->pi_data[0] = next + (uint64_t)k->imm;
		return 0;
	case KC_JCC:
		if (!kx_is_jcc(k) || k->p67)
			return -1; /* xbegin; a 32-bit address size */
		pi->pi_op = X86_OP_JCC;
		pi->pi_data[0] = next + (uint64_t)k->imm;
		pi->pi_data[1] = k->op & 0x0f;
		return 0;
	case KC_LOOP:
		if (k->p67)
			return -1;
		pi->pi_op = X86_OP_LOOP;
		pi->pi_data[0] = next + (uint64_t)k->imm;
		pi->pi_data[1] = k->op == 0xe0   ? X86_LOOP_LOOPNE
		                 : k->op == 0xe1 ? X86_LOOP_LOOPE
		                 : k->op == 0xe2 ? X86_LOOP_LOOP
		                                 : X86_LOOP_JRCXZ;
		return 0;
	default:
		break;
	}
	if (k->map == KX_MAP1 && k->op == 0xff && k->reg >= 2 && k->reg <= 5) {
		if (k->reg == 3 || k->reg == 5)
			return -1; /* far */
		if (kx_prepare_indirect(k, pc, pi)) {
			pi->pi_op = k->reg == 2 ? X86_OP_CALL_IND : X86_OP_JMP_IND;
			return 0;
		}
		memset(pi->pi_data, 0, sizeof(pi->pi_data));
		if (k->reg == 4 && !kx_riprel(k))
			return kx_prepare_ool(pi);
		return -1;
	}
	return 1;
}

/* The cheap instructions insn_step.c emulates. */
static bool
kx_prepare_simple(const kx_t *k, isa_probe_insn_t *pi)
{
	bool w = (k->rex & 8) != 0;

	if (k->map == KX_MAP1) {
		if (k->op == 0x90 && k->rex == 0 && k->rep != 0xf3) {
			pi->pi_op = X86_OP_NEXT;
			return true;
		}
		if (k->op >= 0x50 && k->op <= 0x57 && !k->p66) {
			pi->pi_op = X86_OP_PUSH_REG;
			pi->pi_data[0] = kx_gpr[(k->op & 7) | ((k->rex & 1u) << 3)];
			return true;
		}
		if (k->op == 0xff && k->reg == 6 && k->mod == 3 && !k->p66) {
			pi->pi_op = X86_OP_PUSH_REG;
			pi->pi_data[0] = kx_gpr[kx_rm(k)];
			return true;
		}
		if ((k->op == 0x89 || k->op == 0x8b) && w && k->mod == 3) {
			unsigned dst = k->op == 0x89 ? kx_rm(k) : kx_regf(k);
			unsigned src = k->op == 0x89 ? kx_regf(k) : kx_rm(k);

			pi->pi_op = X86_OP_MOV_REG;
			pi->pi_data[0] = kx_gpr[dst];
			pi->pi_data[1] = kx_gpr[src];
			return true;
		}
		if ((k->op == 0x81 || k->op == 0x83) && w && k->mod == 3 &&
		    (k->reg == 0 || k->reg == 5) && !k->lock) {
			pi->pi_op = X86_OP_ADDSUB_IMM;
			pi->pi_data[0] = kx_gpr[kx_rm(k)];
			pi->pi_data[1] = (uint64_t)k->imm;
			pi->pi_data[2] = k->reg == 5;
			return true;
		}
		if ((k->op == 0x05 || k->op == 0x2d) && w) {
			pi->pi_op = X86_OP_ADDSUB_IMM;
			pi->pi_data[0] = ISA_REG_RAX;
			pi->pi_data[1] = (uint64_t)k->imm;
			pi->pi_data[2] = k->op == 0x2d;
			return true;
		}
		return false;
	}
	if (k->map == KX_MAP0F && k->op == 0x1f) {
		pi->pi_op = X86_OP_NEXT;
		return true;
	}
	if (k->map == KX_MAP0F && k->op == 0x1e && k->rm == 2) {
		pi->pi_op = X86_OP_NEXT; /* endbr64 */
		return true;
	}
	return false;
}

int
isa_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi)
{
	kx_t k;
	int rc;

	memset(pi, 0, sizeof(*pi));
	if (code == NULL || !kx_decode(code, avail, &k))
		return -1;
	memcpy(pi->pi_orig, code, k.len);
	pi->pi_len = k.len;

	/* Instructions that exist to trap, and sysret, sysenter, sysexit. */
	if (k.cls == KC_TRAP) {
		bool ool = (k.map == KX_MAP1 && k.op == 0xcd && (k.imm & 0xff) != 3) ||
		           (k.map == KX_MAP0F && k.op == 0x05);

		if (!ool)
			goto refuse;
		return kx_prepare_ool(pi);
	}
	if ((rc = kx_prepare_branch(&k, pc, pi)) <= 0) {
		if (rc < 0)
			goto refuse;
		return 0;
	}
	if (k.map == KX_MAP1 && k.op == 0xc7 && k.mod == 3 && k.reg == 7)
		goto refuse; /* xbegin */
	if (kx_prepare_simple(&k, pi))
		return 0;
	if (!kx_riprel(&k))
		return kx_prepare_ool(pi);
	if (k.p67)
		goto refuse; /* %eip-relative */
	/* The copy is moved next to its trampoline with a new displacement. */
	pi->pi_op = X86_OP_OOL_RIPDISP;
	pi->pi_data[0] = (uint64_t)pc + k.len + (uint64_t)(int64_t)k.disp;
	pi->pi_data[1] = k.disp_off;
	pi->pi_tramp_len = (uint16_t)(k.len + X86_JMP_ABS_LEN);
	pi->pi_tramp_bp = 0;
	return 0;

refuse:
	memset(pi, 0, sizeof(*pi));
	return -1;
}

size_t
isa_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
                size_t bufsz)
{
	uint64_t back = (uint64_t)pc + pi->pi_len;
	size_t n = pi->pi_len;

	if (pi->pi_tramp_len == 0 || bufsz < pi->pi_tramp_len)
		return 0;
	if (pi->pi_op != X86_OP_OOL && pi->pi_op != X86_OP_OOL_RIPDISP)
		return 0;
	memcpy(buf, pi->pi_orig, n);
	if (pi->pi_op == X86_OP_OOL_RIPDISP) {
		int64_t d = (int64_t)(pi->pi_data[0] - ((uint64_t)tramp + n));
		unsigned off = (unsigned)pi->pi_data[1];

		if (d != (int64_t)(int32_t)d || off + 4 > n)
			return 0; /* the trampoline is out of reach */
		for (int i = 0; i < 4; i++)
			buf[off + i] = (uint8_t)((uint64_t)d >> (8 * i));
	}
	/* jmp *0(%rip), then the address to go back to */
	buf[n++] = 0xff;
	buf[n++] = 0x25;
	memset(buf + n, 0, 4);
	n += 4;
	for (int i = 0; i < 8; i++)
		buf[n++] = (uint8_t)(back >> (8 * i));
	return n;
}
