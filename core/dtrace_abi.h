/*
 * dtrace_abi.h: the formats every layer of Portable DTrace agrees on.
 *
 * The D compiler writes DIF and DOF with these definitions, the core loads,
 * validates and runs them, and the consumer decodes buffer records and
 * descriptors with them.  Nothing here is behaviour: only numbers, layouts and
 * the macros that pack and unpack them.
 *
 * Invariants:
 *  - Every number that appears in DOF, in DIF or in a buffer record is the
 *    value published by DTrace (illumos sys/dtrace.h), so DOF produced by
 *    another DTrace loads here.  Where FreeBSD or illumos disagree, illumos
 *    wins and the choice is written next to the value.
 *  - Format-level names are DTrace's own (DIF_OP_*, DOF_SECT_*, dof_hdr_t,
 *    dtrace_recdesc_t, ...) because porters and D users already know them.
 *  - Freestanding: only <stdint.h>, <stddef.h> and <stdbool.h>; no OS or ISA
 *    conditional.  The one data-model dependence (pointers inside consumer
 *    descriptors) is handled with a union padded to 64 bits, not with #if.
 *  - DOF structures use fixed-width fields only; their sizes are checked by
 *    tests/core/abi_layout.c.
 */
#ifndef DTRACE_ABI_H
#define DTRACE_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ---------------------------------------------------------------------------
 * Identifiers and name lengths
 * ---------------------------------------------------------------------------
 */
#define DTRACE_CPUALL (-1)    /* dtbd_cpu: every CPU */
#define DTRACE_IDNONE 0       /* no probe */
#define DTRACE_EPIDNONE 0     /* no enabled probe; EPID 0 is never handed out */
#define DTRACE_AGGIDNONE 0    /* no aggregation */
#define DTRACE_AGGVARIDNONE 0 /* no aggregation variable */
#define DTRACE_CACHEIDNONE 0  /* no predicate cache slot */
#define DTRACE_PROVNONE 0     /* no provider */
#define DTRACE_METAPROVNONE 0 /* no meta-provider */
#define DTRACE_ARGNONE (-1)   /* dtargd_ndx: no such argument */

#define DTRACE_PROVNAMELEN 64
#define DTRACE_MODNAMELEN 64
#define DTRACE_FUNCNAMELEN 128
#define DTRACE_NAMELEN 64
/* provider:module:function:name plus three colons and the terminator */
#define DTRACE_FULLNAMELEN                                                                         \
	(DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 4)
#define DTRACE_ARGTYPELEN 128

typedef uint32_t dtrace_id_t;      /* probe id */
typedef uint32_t dtrace_epid_t;    /* enabled-probe id, first word of every record */
typedef uint32_t dtrace_aggid_t;   /* aggregation id, first word of an aggregation record */
typedef int64_t dtrace_aggvarid_t; /* aggregation variable id (consumer side) */
typedef uint16_t dtrace_actkind_t; /* DTRACEACT_* / DTRACEAGG_* */
typedef int64_t dtrace_optval_t;   /* value of a DTRACEOPT_* option */
typedef uint32_t dtrace_cacheid_t; /* predicate cache id */
typedef int64_t dtrace_hrtime_t;   /* nanoseconds */

/* Which field of a probe description a glob or a lookup refers to. */
typedef enum dtrace_probespec {
	DTRACE_PROBESPEC_NONE = -1,
	DTRACE_PROBESPEC_PROVIDER = 0,
	DTRACE_PROBESPEC_MOD = 1,
	DTRACE_PROBESPEC_FUNC = 2,
	DTRACE_PROBESPEC_NAME = 3
} dtrace_probespec_t;

/*
 * ---------------------------------------------------------------------------
 * DIF: the D Intermediate Format
 *
 * A 32-bit RISC-like instruction set: an opcode byte, then three operand
 * bytes (r1, r2, rd) or a wider immediate.  Register counts are the minimum a
 * compiler may assume; the real counts come back in dtrace_conf_t.
 * ---------------------------------------------------------------------------
 */
#define DIF_VERSION_1 1
#define DIF_VERSION_2 2
#define DIF_VERSION DIF_VERSION_2
#define DIF_DIR_NREGS 8 /* integer registers; %r0 reads as zero */
#define DIF_DTR_NREGS 8 /* tuple (argument stack) registers */

/* Operand shapes are given as: r1, r2 sources; rd destination. */
#define DIF_OP_OR 1       /* r1 | r2 -> rd */
#define DIF_OP_XOR 2      /* r1 ^ r2 -> rd */
#define DIF_OP_AND 3      /* r1 & r2 -> rd */
#define DIF_OP_SLL 4      /* r1 << r2 -> rd */
#define DIF_OP_SRL 5      /* r1 >> r2 (logical) -> rd */
#define DIF_OP_SUB 6      /* r1 - r2 -> rd */
#define DIF_OP_ADD 7      /* r1 + r2 -> rd */
#define DIF_OP_MUL 8      /* r1 * r2 -> rd */
#define DIF_OP_SDIV 9     /* signed r1 / r2 -> rd */
#define DIF_OP_UDIV 10    /* unsigned r1 / r2 -> rd */
#define DIF_OP_SREM 11    /* signed r1 % r2 -> rd */
#define DIF_OP_UREM 12    /* unsigned r1 % r2 -> rd */
#define DIF_OP_NOT 13     /* ~r1 -> rd */
#define DIF_OP_MOV 14     /* r1 -> rd */
#define DIF_OP_CMP 15     /* set condition codes from r1 - r2 */
#define DIF_OP_TST 16     /* set condition codes from r1 */
#define DIF_OP_BA 17      /* branch always to label */
#define DIF_OP_BE 18      /* branch if equal */
#define DIF_OP_BNE 19     /* branch if not equal */
#define DIF_OP_BG 20      /* branch if greater (signed) */
#define DIF_OP_BGU 21     /* branch if greater (unsigned) */
#define DIF_OP_BGE 22     /* branch if greater or equal (signed) */
#define DIF_OP_BGEU 23    /* branch if greater or equal (unsigned) */
#define DIF_OP_BL 24      /* branch if less (signed) */
#define DIF_OP_BLU 25     /* branch if less (unsigned) */
#define DIF_OP_BLE 26     /* branch if less or equal (signed) */
#define DIF_OP_BLEU 27    /* branch if less or equal (unsigned) */
#define DIF_OP_LDSB 28    /* load signed byte [r1] -> rd */
#define DIF_OP_LDSH 29    /* load signed half-word [r1] -> rd */
#define DIF_OP_LDSW 30    /* load signed word [r1] -> rd */
#define DIF_OP_LDUB 31    /* load unsigned byte [r1] -> rd */
#define DIF_OP_LDUH 32    /* load unsigned half-word [r1] -> rd */
#define DIF_OP_LDUW 33    /* load unsigned word [r1] -> rd */
#define DIF_OP_LDX 34     /* load 64-bit [r1] -> rd */
#define DIF_OP_RET 35     /* return rd */
#define DIF_OP_NOP 36     /* no operation */
#define DIF_OP_SETX 37    /* inttab[index] -> rd */
#define DIF_OP_SETS 38    /* strtab + offset -> rd */
#define DIF_OP_SCMP 39    /* condition codes from string compare of r1, r2 */
#define DIF_OP_LDGA 40    /* global array var[ri] -> rd */
#define DIF_OP_LDGS 41    /* global scalar var -> rd */
#define DIF_OP_STGS 42    /* rs -> global scalar var */
#define DIF_OP_LDTA 43    /* thread-local array var[ri] -> rd */
#define DIF_OP_LDTS 44    /* thread-local scalar var -> rd */
#define DIF_OP_STTS 45    /* rs -> thread-local scalar var */
#define DIF_OP_SRA 46     /* r1 >> r2 (arithmetic) -> rd */
#define DIF_OP_CALL 47    /* subroutine(tuple stack) -> rd */
#define DIF_OP_PUSHTR 48  /* push by-reference tuple entry (type, rs, size in rr) */
#define DIF_OP_PUSHTV 49  /* push by-value tuple entry (type, rs) */
#define DIF_OP_POPTS 50   /* pop the tuple stack */
#define DIF_OP_FLUSHTS 51 /* empty the tuple stack */
#define DIF_OP_LDGAA 52   /* global associative array var[tuple] -> rd */
#define DIF_OP_LDTAA 53   /* thread-local associative array var[tuple] -> rd */
#define DIF_OP_STGAA 54   /* rs -> global associative array var[tuple] */
#define DIF_OP_STTAA 55   /* rs -> thread-local associative array var[tuple] */
#define DIF_OP_LDLS 56    /* clause-local scalar var -> rd */
#define DIF_OP_STLS 57    /* rs -> clause-local scalar var */
#define DIF_OP_ALLOCS 58  /* allocate r1 bytes of scratch -> rd */
#define DIF_OP_COPYS 59   /* copy r2 bytes from [r1] to [rd] */
#define DIF_OP_STB 60     /* store byte r1 -> [rd] */
#define DIF_OP_STH 61     /* store half-word r1 -> [rd] */
#define DIF_OP_STW 62     /* store word r1 -> [rd] */
#define DIF_OP_STX 63     /* store 64-bit r1 -> [rd] */
#define DIF_OP_ULDSB 64   /* user-space loads: as LDSB .. LDX, */
#define DIF_OP_ULDSH 65   /*   through the user nofault path */
#define DIF_OP_ULDSW 66
#define DIF_OP_ULDUB 67
#define DIF_OP_ULDUH 68
#define DIF_OP_ULDUW 69
#define DIF_OP_ULDX 70
#define DIF_OP_RLDSB 71 /* as LDSB .. LDX, for addresses the core must */
#define DIF_OP_RLDSH 72 /*   check against memory D may read */
#define DIF_OP_RLDSW 73
#define DIF_OP_RLDUB 74
#define DIF_OP_RLDUH 75
#define DIF_OP_RLDUW 76
#define DIF_OP_RLDX 77
#define DIF_OP_XLATE 78 /* translated member, DOF_SECT_XLTAB index -> rd */
#define DIF_OP_XLARG 79 /* translator argument, DOF_SECT_XLTAB index -> rd */
/*
 * illumos added a store into a global array indexed by register (the
 * counterpart of LDGA).  FreeBSD has no opcode 80, so there is no collision.
 */
#define DIF_OP_STGA 80 /* rd -> global array var[ri] */
#define DIF_OP_MAX DIF_OP_STGA

/* Table and operand limits implied by the 16-bit and 8-bit fields. */
#define DIF_INTOFF_MAX 0xffff     /* largest integer-table index */
#define DIF_STROFF_MAX 0xffff     /* largest string-table offset */
#define DIF_REGISTER_MAX 0xff     /* largest register number */
#define DIF_VARIABLE_MAX 0xffff   /* largest variable id */
#define DIF_SUBROUTINE_MAX 0xffff /* largest subroutine number */

/* Variable id space: arrays below 0x100, scalars and associatives above. */
#define DIF_VAR_ARRAY_MIN 0x0000
#define DIF_VAR_ARRAY_UBASE 0x0080 /* first id the compiler gives a user array */
#define DIF_VAR_ARRAY_MAX 0x00ff
#define DIF_VAR_OTHER_MIN 0x0100
#define DIF_VAR_OTHER_UBASE 0x0500 /* first id the compiler gives a user variable */
#define DIF_VAR_OTHER_MAX 0xffff

/* Built-in arrays. */
#define DIF_VAR_ARGS 0x0000   /* args[] */
#define DIF_VAR_REGS 0x0001   /* regs[] (kernel registers) */
#define DIF_VAR_UREGS 0x0002  /* uregs[] (user registers) */
#define DIF_VAR_VMREGS 0x0003 /* vmregs[] (illumos: guest VM registers) */

/* Built-in scalars. */
#define DIF_VAR_CURTHREAD 0x0100
#define DIF_VAR_TIMESTAMP 0x0101
#define DIF_VAR_VTIMESTAMP 0x0102
#define DIF_VAR_IPL 0x0103
#define DIF_VAR_EPID 0x0104
#define DIF_VAR_ID 0x0105
#define DIF_VAR_ARG0 0x0106
#define DIF_VAR_ARG1 0x0107
#define DIF_VAR_ARG2 0x0108
#define DIF_VAR_ARG3 0x0109
#define DIF_VAR_ARG4 0x010a
#define DIF_VAR_ARG5 0x010b
#define DIF_VAR_ARG6 0x010c
#define DIF_VAR_ARG7 0x010d
#define DIF_VAR_ARG8 0x010e
#define DIF_VAR_ARG9 0x010f
#define DIF_VAR_STACKDEPTH 0x0110
#define DIF_VAR_CALLER 0x0111
#define DIF_VAR_PROBEPROV 0x0112
#define DIF_VAR_PROBEMOD 0x0113
#define DIF_VAR_PROBEFUNC 0x0114
#define DIF_VAR_PROBENAME 0x0115
#define DIF_VAR_PID 0x0116
#define DIF_VAR_TID 0x0117
#define DIF_VAR_EXECNAME 0x0118
#define DIF_VAR_ZONENAME 0x0119
#define DIF_VAR_WALLTIMESTAMP 0x011a
#define DIF_VAR_USTACKDEPTH 0x011b
#define DIF_VAR_UCALLER 0x011c
#define DIF_VAR_PPID 0x011d
#define DIF_VAR_UID 0x011e
#define DIF_VAR_GID 0x011f
#define DIF_VAR_ERRNO 0x0120
/*
 * Collision at 0x0121: illumos assigns it to threadname, FreeBSD to execargs.
 * illumos is canonical here, so 0x0121 is threadname.  execargs moves to
 * 0x0124, the first id neither system uses; FreeBSD DOF that reads execargs
 * through 0x0121 would get the thread name (also a string) instead.
 */
#define DIF_VAR_THREADNAME 0x0121
/* FreeBSD's jail variables: no illumos variable uses these ids. */
#define DIF_VAR_JID 0x0122
#define DIF_VAR_JAILNAME 0x0123
#define DIF_VAR_EXECARGS 0x0124 /* FreeBSD 0x0121, moved: see above */
/*
 * FreeBSD's `cpu' built-in.  illumos defines `cpu' as a D inline over kernel
 * structures we do not have, so we use FreeBSD's id; illumos leaves 0x0200
 * unused.
 */
#define DIF_VAR_CPU 0x0200

/*
 * Subroutines.  0..48 are illumos's numbers.  FreeBSD agrees up to 45, then
 * inserts its own subroutines before getf/json/strtoll, so its 46..53 (and
 * older releases' 46..54, which also had typeref) mean something else.  We
 * keep illumos's 46..48 and give the FreeBSD-only subroutines fresh numbers
 * above every number either system has used (FreeBSD's highest was 54), so no
 * number here carries a meaning different from illumos's.
 */
#define DIF_SUBR_RAND 0
#define DIF_SUBR_MUTEX_OWNED 1
#define DIF_SUBR_MUTEX_OWNER 2
#define DIF_SUBR_MUTEX_TYPE_ADAPTIVE 3
#define DIF_SUBR_MUTEX_TYPE_SPIN 4
#define DIF_SUBR_RW_READ_HELD 5
#define DIF_SUBR_RW_WRITE_HELD 6
#define DIF_SUBR_RW_ISWRITER 7
#define DIF_SUBR_COPYIN 8
#define DIF_SUBR_COPYINSTR 9
#define DIF_SUBR_SPECULATION 10
#define DIF_SUBR_PROGENYOF 11
#define DIF_SUBR_STRLEN 12
#define DIF_SUBR_COPYOUT 13
#define DIF_SUBR_COPYOUTSTR 14
#define DIF_SUBR_ALLOCA 15
#define DIF_SUBR_BCOPY 16
#define DIF_SUBR_COPYINTO 17
#define DIF_SUBR_MSGDSIZE 18
#define DIF_SUBR_MSGSIZE 19
#define DIF_SUBR_GETMAJOR 20
#define DIF_SUBR_GETMINOR 21
#define DIF_SUBR_DDI_PATHNAME 22
#define DIF_SUBR_STRJOIN 23
#define DIF_SUBR_LLTOSTR 24
#define DIF_SUBR_BASENAME 25
#define DIF_SUBR_DIRNAME 26
#define DIF_SUBR_CLEANPATH 27
#define DIF_SUBR_STRCHR 28
#define DIF_SUBR_STRRCHR 29
#define DIF_SUBR_STRSTR 30
#define DIF_SUBR_STRTOK 31
#define DIF_SUBR_SUBSTR 32
#define DIF_SUBR_INDEX 33
#define DIF_SUBR_RINDEX 34
#define DIF_SUBR_HTONS 35
#define DIF_SUBR_HTONL 36
#define DIF_SUBR_HTONLL 37
#define DIF_SUBR_NTOHS 38
#define DIF_SUBR_NTOHL 39
#define DIF_SUBR_NTOHLL 40
#define DIF_SUBR_INET_NTOP 41
#define DIF_SUBR_INET_NTOA 42
#define DIF_SUBR_INET_NTOA6 43
#define DIF_SUBR_TOUPPER 44
#define DIF_SUBR_TOLOWER 45
#define DIF_SUBR_GETF 46    /* FreeBSD: 51 (older: 52) */
#define DIF_SUBR_JSON 47    /* FreeBSD: 52 (older: 53) */
#define DIF_SUBR_STRTOLL 48 /* FreeBSD: 53 (older: 54) */
/* 49..54: reserved, never assigned, so FreeBSD numbers there fail validation. */
#define DIF_SUBR_MEMREF 55            /* FreeBSD: 46 */
#define DIF_SUBR_TYPEREF 56           /* older FreeBSD: 47 (for printt) */
#define DIF_SUBR_SX_SHARED_HELD 57    /* FreeBSD: 47 (older: 48) */
#define DIF_SUBR_SX_EXCLUSIVE_HELD 58 /* FreeBSD: 48 (older: 49) */
#define DIF_SUBR_SX_ISEXCLUSIVE 59    /* FreeBSD: 49 (older: 50) */
#define DIF_SUBR_MEMSTR 60            /* FreeBSD: 50 (older: 51) */
#define DIF_SUBR_MAX 60

/*
 * Instruction encoding.  Bits 31..24 hold the opcode; the rest is either
 * three register bytes (r1 23..16, r2 15..8, rd/rs 7..0), a 24-bit branch
 * label, or a 16-bit immediate in 23..8 (variable id, integer-table index,
 * string offset, subroutine number, translator reference) with rd in 7..0.
 */
typedef uint32_t dif_instr_t;

#define DIF_INSTR_OP(i) (((i) >> 24) & 0xffu)
#define DIF_INSTR_R1(i) (((i) >> 16) & 0xffu)
#define DIF_INSTR_R2(i) (((i) >> 8) & 0xffu)
#define DIF_INSTR_RD(i) ((i)&0xffu)
#define DIF_INSTR_RS(i) ((i)&0xffu)
#define DIF_INSTR_LABEL(i) ((i)&0xffffffu)
#define DIF_INSTR_VAR(i) (((i) >> 8) & 0xffffu)
#define DIF_INSTR_INTEGER(i) (((i) >> 8) & 0xffffu)
#define DIF_INSTR_STRING(i) (((i) >> 8) & 0xffffu)
#define DIF_INSTR_SUBR(i) (((i) >> 8) & 0xffffu)
#define DIF_INSTR_TYPE(i) (((i) >> 16) & 0xffu)
#define DIF_INSTR_XLREF(i) (((i) >> 8) & 0xffffu)

#define DIF_INSTR_FMT(op, r1, r2, d)                                                               \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(r1) << 16) | ((uint32_t)(r2) << 8) |   \
	               (uint32_t)(d)))
/* opcode + 16-bit immediate + destination/source register */
#define DIF_INSTR_IMM16(op, imm, d)                                                                \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(imm) << 8) | (uint32_t)(d)))

#define DIF_INSTR_NOT(r1, d) DIF_INSTR_FMT(DIF_OP_NOT, r1, 0, d)
#define DIF_INSTR_MOV(r1, d) DIF_INSTR_FMT(DIF_OP_MOV, r1, 0, d)
#define DIF_INSTR_CMP(op, r1, r2) DIF_INSTR_FMT(op, r1, r2, 0)
#define DIF_INSTR_TST(r1) DIF_INSTR_FMT(DIF_OP_TST, r1, 0, 0)
#define DIF_INSTR_BRANCH(op, label)                                                                \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(label)&0xffffffu)))
#define DIF_INSTR_LOAD(op, r1, d) DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_STORE(op, r1, d) DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_SETX(i, d) DIF_INSTR_IMM16(DIF_OP_SETX, i, d)
#define DIF_INSTR_SETS(s, d) DIF_INSTR_IMM16(DIF_OP_SETS, s, d)
#define DIF_INSTR_RET(d) DIF_INSTR_FMT(DIF_OP_RET, 0, 0, d)
#define DIF_INSTR_NOP ((dif_instr_t)((uint32_t)DIF_OP_NOP << 24))
#define DIF_INSTR_LDA(op, v, r, d) DIF_INSTR_FMT(op, v, r, d)
#define DIF_INSTR_LDV(op, v, d) DIF_INSTR_IMM16(op, v, d)
#define DIF_INSTR_STV(op, v, rs) DIF_INSTR_IMM16(op, v, rs)
#define DIF_INSTR_CALL(s, d) DIF_INSTR_IMM16(DIF_OP_CALL, s, d)
#define DIF_INSTR_PUSHTS(op, t, r2, rs) DIF_INSTR_FMT(op, t, r2, rs)
#define DIF_INSTR_POPTS ((dif_instr_t)((uint32_t)DIF_OP_POPTS << 24))
#define DIF_INSTR_FLUSHTS ((dif_instr_t)((uint32_t)DIF_OP_FLUSHTS << 24))
#define DIF_INSTR_ALLOCS(r1, d) DIF_INSTR_FMT(DIF_OP_ALLOCS, r1, 0, d)
#define DIF_INSTR_COPYS(r1, r2, d) DIF_INSTR_FMT(DIF_OP_COPYS, r1, r2, d)
#define DIF_INSTR_XLATE(op, r, d) DIF_INSTR_IMM16(op, r, d)

#define DIF_REG_R0 0 /* always reads as zero; writes are discarded */

/* Type of a variable, a tuple member or a DIFO's result. */
typedef struct dtrace_diftype {
	uint8_t dtdt_kind;  /* DIF_TYPE_* */
	uint8_t dtdt_ckind; /* CTF kind when dtdt_kind is DIF_TYPE_CTF */
	uint8_t dtdt_flags; /* DIF_TF_* */
	uint8_t dtdt_pad;
	uint32_t dtdt_size; /* bytes (strings: 0, the strsize option rules) */
} dtrace_diftype_t;

#define DIF_TYPE_CTF 0    /* described by CTF */
#define DIF_TYPE_STRING 1 /* a D string */

#define DIF_TF_BYREF 0x1  /* value is an address of dtdt_size bytes in kernel/core memory */
#define DIF_TF_BYUREF 0x2 /* value is an address of dtdt_size bytes in user memory */

/* One entry of a DIFO's variable table. */
typedef struct dtrace_difv {
	uint32_t dtdv_name;  /* name: offset in the DIFO string table */
	uint32_t dtdv_id;    /* id used by the instructions */
	uint8_t dtdv_kind;   /* DIFV_KIND_* */
	uint8_t dtdv_scope;  /* DIFV_SCOPE_* */
	uint16_t dtdv_flags; /* DIFV_F_* */
	dtrace_diftype_t dtdv_type;
} dtrace_difv_t;

#define DIFV_KIND_ARRAY 0
#define DIFV_KIND_SCALAR 1

#define DIFV_SCOPE_GLOBAL 0
#define DIFV_SCOPE_THREAD 1
#define DIFV_SCOPE_LOCAL 2

#define DIFV_F_REF 0x1 /* read by the DIFO */
#define DIFV_F_MOD 0x2 /* written by the DIFO */

/*
 * ---------------------------------------------------------------------------
 * Actions
 *
 * The high byte of an action kind is its class, the low byte the action
 * within the class.  Class decides privilege (destructive or not) and which
 * part of the core handles it.
 * ---------------------------------------------------------------------------
 */
#define DTRACEACT_NONE 0
#define DTRACEACT_DIFEXPR 1 /* record the DIFO's result (trace(), print()) */
#define DTRACEACT_EXIT 2
#define DTRACEACT_PRINTF 3
#define DTRACEACT_PRINTA 4
#define DTRACEACT_LIBACT 5 /* consumer-side action; dtrd_arg holds a DT_ACT_* */
#define DTRACEACT_TRACEMEM 6
#define DTRACEACT_TRACEMEM_DYNSIZE 7 /* size record that precedes a dynamic tracemem() */
#define DTRACEACT_PRINTM 8           /* FreeBSD printm(); illumos leaves 8 unused */
#define DTRACEACT_PRINTT 9           /* older FreeBSD printt(); illumos leaves 9 unused */
/*
 * print() has no kind of its own: it is DTRACEACT_DIFEXPR whose DIFO returns
 * DIF_TF_BYREF data, with the type named by a "module`ctf-id" string the
 * compiler attaches to the statement.
 */

#define DTRACEACT_PROC 0x0100
#define DTRACEACT_USTACK (DTRACEACT_PROC + 1)
#define DTRACEACT_JSTACK (DTRACEACT_PROC + 2)
#define DTRACEACT_USYM (DTRACEACT_PROC + 3)
#define DTRACEACT_UMOD (DTRACEACT_PROC + 4)
#define DTRACEACT_UADDR (DTRACEACT_PROC + 5)

#define DTRACEACT_PROC_DESTRUCTIVE 0x0200
#define DTRACEACT_STOP (DTRACEACT_PROC_DESTRUCTIVE + 1)
#define DTRACEACT_RAISE (DTRACEACT_PROC_DESTRUCTIVE + 2)
#define DTRACEACT_SYSTEM (DTRACEACT_PROC_DESTRUCTIVE + 3)
#define DTRACEACT_FREOPEN (DTRACEACT_PROC_DESTRUCTIVE + 4)

#define DTRACEACT_PROC_CONTROL 0x0300

#define DTRACEACT_KERNEL 0x0400
#define DTRACEACT_STACK (DTRACEACT_KERNEL + 1)
#define DTRACEACT_SYM (DTRACEACT_KERNEL + 2)
#define DTRACEACT_MOD (DTRACEACT_KERNEL + 3)

#define DTRACEACT_KERNEL_DESTRUCTIVE 0x0500
#define DTRACEACT_BREAKPOINT (DTRACEACT_KERNEL_DESTRUCTIVE + 1)
#define DTRACEACT_PANIC (DTRACEACT_KERNEL_DESTRUCTIVE + 2)
#define DTRACEACT_CHILL (DTRACEACT_KERNEL_DESTRUCTIVE + 3)

#define DTRACEACT_SPECULATIVE 0x0600
#define DTRACEACT_SPECULATE (DTRACEACT_SPECULATIVE + 1)
#define DTRACEACT_COMMIT (DTRACEACT_SPECULATIVE + 2)
#define DTRACEACT_DISCARD (DTRACEACT_SPECULATIVE + 3)

#define DTRACEACT_CLASS(x) ((x)&0xff00)

#define DTRACEACT_ISDESTRUCTIVE(x)                                                                 \
	(DTRACEACT_CLASS(x) == DTRACEACT_PROC_DESTRUCTIVE ||                                       \
	 DTRACEACT_CLASS(x) == DTRACEACT_KERNEL_DESTRUCTIVE)
#define DTRACEACT_ISSPECULATIVE(x) (DTRACEACT_CLASS(x) == DTRACEACT_SPECULATIVE)
/* actions whose record carries a format string id in dtrd_format */
#define DTRACEACT_ISPRINTFLIKE(x)                                                                  \
	((x) == DTRACEACT_PRINTF || (x) == DTRACEACT_PRINTA || (x) == DTRACEACT_SYSTEM ||          \
	 (x) == DTRACEACT_FREOPEN)

/*
 * Aggregating actions: functions whose result over a union of sets equals the
 * function applied to the per-set results, which is what lets each CPU reduce
 * locally and the consumer merge.
 */
#define DTRACEACT_AGGREGATION 0x0700
#define DTRACEAGG_COUNT (DTRACEACT_AGGREGATION + 1)
#define DTRACEAGG_MIN (DTRACEACT_AGGREGATION + 2)
#define DTRACEAGG_MAX (DTRACEACT_AGGREGATION + 3)
#define DTRACEAGG_AVG (DTRACEACT_AGGREGATION + 4)
#define DTRACEAGG_SUM (DTRACEACT_AGGREGATION + 5)
#define DTRACEAGG_STDDEV (DTRACEACT_AGGREGATION + 6)
#define DTRACEAGG_QUANTIZE (DTRACEACT_AGGREGATION + 7)
#define DTRACEAGG_LQUANTIZE (DTRACEACT_AGGREGATION + 8)
#define DTRACEAGG_LLQUANTIZE (DTRACEACT_AGGREGATION + 9)

#define DTRACEACT_ISAGG(x) (DTRACEACT_CLASS(x) == DTRACEACT_AGGREGATION)

/*
 * quantize(): one bucket per power of two on each side of zero.  Bucket
 * DTRACE_QUANTIZE_ZEROBUCKET counts zero; bucket Z+1+k counts [2^k, 2^(k+1)),
 * bucket Z-1-k counts (-2^(k+1), -2^k].  63 + 1 + 63 = 127 buckets.
 */
#define DTRACE_QUANTIZE_ZEROBUCKET 63
#define DTRACE_QUANTIZE_NBUCKETS (2 * DTRACE_QUANTIZE_ZEROBUCKET + 1)
/* the bucket's label as printed: 2^k for Z+1+k, -(2^k) for Z-1-k, 0 for Z */
#define DTRACE_QUANTIZE_BUCKETVAL(buck)                                                            \
	((int64_t)((buck) < DTRACE_QUANTIZE_ZEROBUCKET                                             \
	               ? -(INT64_C(1) << (DTRACE_QUANTIZE_ZEROBUCKET - 1 - (buck)))                \
	           : (buck) == DTRACE_QUANTIZE_ZEROBUCKET                                          \
	               ? 0                                                                         \
	               : (INT64_C(1) << ((buck)-DTRACE_QUANTIZE_ZEROBUCKET - 1))))

/*
 * lquantize(value, base, limit, step): the action argument packs
 * step (16 bits) | levels (16 bits) | base (32 bits, signed).  Buckets are
 * one underflow, `levels' linear buckets, one overflow.
 */
#define DTRACE_LQUANTIZE_STEPSHIFT 48
#define DTRACE_LQUANTIZE_STEPMASK ((uint64_t)UINT16_MAX << 48)
#define DTRACE_LQUANTIZE_LEVELSHIFT 32
#define DTRACE_LQUANTIZE_LEVELMASK ((uint64_t)UINT16_MAX << 32)
#define DTRACE_LQUANTIZE_BASESHIFT 0
#define DTRACE_LQUANTIZE_BASEMASK ((uint64_t)UINT32_MAX)

#define DTRACE_LQUANTIZE_STEP(x)                                                                   \
	((uint16_t)(((uint64_t)(x)&DTRACE_LQUANTIZE_STEPMASK) >> DTRACE_LQUANTIZE_STEPSHIFT))
#define DTRACE_LQUANTIZE_LEVELS(x)                                                                 \
	((uint16_t)(((uint64_t)(x)&DTRACE_LQUANTIZE_LEVELMASK) >> DTRACE_LQUANTIZE_LEVELSHIFT))
#define DTRACE_LQUANTIZE_BASE(x)                                                                   \
	((int32_t)(uint32_t)(((uint64_t)(x)&DTRACE_LQUANTIZE_BASEMASK) >>                          \
	                     DTRACE_LQUANTIZE_BASESHIFT))
#define DTRACE_LQUANTIZE_ARG(step, levels, base)                                                   \
	(((uint64_t)(uint16_t)(step) << DTRACE_LQUANTIZE_STEPSHIFT) |                              \
	 ((uint64_t)(uint16_t)(levels) << DTRACE_LQUANTIZE_LEVELSHIFT) |                           \
	 ((uint64_t)(uint32_t)(int32_t)(base) << DTRACE_LQUANTIZE_BASESHIFT))
#define DTRACE_LQUANTIZE_NBUCKETS(x) ((uint32_t)DTRACE_LQUANTIZE_LEVELS(x) + 2)

/*
 * llquantize(value, factor, low, high, nsteps): the argument packs
 * factor | low magnitude | high magnitude | steps per magnitude, 16 bits each.
 */
#define DTRACE_LLQUANTIZE_FACTORSHIFT 48
#define DTRACE_LLQUANTIZE_FACTORMASK ((uint64_t)UINT16_MAX << 48)
#define DTRACE_LLQUANTIZE_LOWSHIFT 32
#define DTRACE_LLQUANTIZE_LOWMASK ((uint64_t)UINT16_MAX << 32)
#define DTRACE_LLQUANTIZE_HIGHSHIFT 16
#define DTRACE_LLQUANTIZE_HIGHMASK ((uint64_t)UINT16_MAX << 16)
#define DTRACE_LLQUANTIZE_NSTEPSHIFT 0
#define DTRACE_LLQUANTIZE_NSTEPMASK ((uint64_t)UINT16_MAX)

#define DTRACE_LLQUANTIZE_FACTOR(x)                                                                \
	((uint16_t)(((uint64_t)(x)&DTRACE_LLQUANTIZE_FACTORMASK) >> DTRACE_LLQUANTIZE_FACTORSHIFT))
#define DTRACE_LLQUANTIZE_LOW(x)                                                                   \
	((uint16_t)(((uint64_t)(x)&DTRACE_LLQUANTIZE_LOWMASK) >> DTRACE_LLQUANTIZE_LOWSHIFT))
#define DTRACE_LLQUANTIZE_HIGH(x)                                                                  \
	((uint16_t)(((uint64_t)(x)&DTRACE_LLQUANTIZE_HIGHMASK) >> DTRACE_LLQUANTIZE_HIGHSHIFT))
#define DTRACE_LLQUANTIZE_NSTEP(x)                                                                 \
	((uint16_t)(((uint64_t)(x)&DTRACE_LLQUANTIZE_NSTEPMASK) >> DTRACE_LLQUANTIZE_NSTEPSHIFT))
#define DTRACE_LLQUANTIZE_ARG(factor, low, high, nsteps)                                           \
	(((uint64_t)(uint16_t)(factor) << DTRACE_LLQUANTIZE_FACTORSHIFT) |                         \
	 ((uint64_t)(uint16_t)(low) << DTRACE_LLQUANTIZE_LOWSHIFT) |                               \
	 ((uint64_t)(uint16_t)(high) << DTRACE_LLQUANTIZE_HIGHSHIFT) |                             \
	 ((uint64_t)(uint16_t)(nsteps) << DTRACE_LLQUANTIZE_NSTEPSHIFT))

/*
 * ustack()/jstack() argument: frame count in the low 32 bits, size of the
 * string table for helper-produced frame names in the high 32 bits.
 */
#define DTRACE_USTACK_NFRAMES(x) ((uint32_t)((uint64_t)(x)&UINT32_MAX))
#define DTRACE_USTACK_STRSIZE(x) ((uint32_t)((uint64_t)(x) >> 32))
#define DTRACE_USTACK_ARG(x, y) ((((uint64_t)(y)) << 32) | ((uint64_t)(x)&UINT32_MAX))

/*
 * Consumer-side (library) actions, carried as the argument of a
 * DTRACEACT_LIBACT record (and as the compiler's identifier codes).  As in
 * libdtrace they are numbered after the last subroutine, so their values
 * follow DIF_SUBR_MAX and are private to one compiler/consumer pair; they
 * never travel to a foreign consumer.
 */
#define DT_ACT_BASE (DIF_SUBR_MAX + 1)
#define DT_ACT(n) (DT_ACT_BASE + (n))
#define DT_ACT_IDX(n) ((n)-DT_ACT_BASE)
#define DT_ACT_PRINTF DT_ACT(0)
#define DT_ACT_TRACE DT_ACT(1)
#define DT_ACT_TRACEMEM DT_ACT(2)
#define DT_ACT_STACK DT_ACT(3)
#define DT_ACT_STOP DT_ACT(4)
#define DT_ACT_BREAKPOINT DT_ACT(5)
#define DT_ACT_PANIC DT_ACT(6)
#define DT_ACT_SPECULATE DT_ACT(7)
#define DT_ACT_COMMIT DT_ACT(8)
#define DT_ACT_DISCARD DT_ACT(9)
#define DT_ACT_CHILL DT_ACT(10)
#define DT_ACT_EXIT DT_ACT(11)
#define DT_ACT_USTACK DT_ACT(12)
#define DT_ACT_PRINTA DT_ACT(13)
#define DT_ACT_RAISE DT_ACT(14)
#define DT_ACT_CLEAR DT_ACT(15)
#define DT_ACT_NORMALIZE DT_ACT(16)
#define DT_ACT_DENORMALIZE DT_ACT(17)
#define DT_ACT_TRUNC DT_ACT(18)
#define DT_ACT_SYSTEM DT_ACT(19)
#define DT_ACT_JSTACK DT_ACT(20)
#define DT_ACT_FTRUNCATE DT_ACT(21)
#define DT_ACT_FREOPEN DT_ACT(22)
#define DT_ACT_SYM DT_ACT(23)
#define DT_ACT_MOD DT_ACT(24)
#define DT_ACT_USYM DT_ACT(25)
#define DT_ACT_UMOD DT_ACT(26)
#define DT_ACT_UADDR DT_ACT(27)
#define DT_ACT_SETOPT DT_ACT(28)
#define DT_ACT_PCAP DT_ACT(29)   /* illumos 29 */
#define DT_ACT_PRINT DT_ACT(30)  /* FreeBSD used 29 for this */
#define DT_ACT_PRINTM DT_ACT(31) /* FreeBSD used 30 for this */
#define DT_ACT_MAX 32            /* number of DT_ACT codes */

/*
 * A descriptor field that holds a pointer across the consumer/core boundary.
 * The union keeps the field 64 bits wide whatever the data model, so the
 * descriptor has one layout for 32- and 64-bit consumers; on a 32-bit
 * little-endian consumer the pointer sits in the low half, as in DTrace.
 */
#define DTRACE_PTR(type, name)                                                                     \
	union {                                                                                    \
		type *name;                                                                        \
		uint64_t name##_u64;                                                               \
	}

/*
 * ---------------------------------------------------------------------------
 * DOF: the DTrace Object Format
 *
 * A DOF image is a header, an array of section headers, the loadable section
 * data, then data the core never loads (comments, source, utsname).  All
 * fields are fixed-width so 32- and 64-bit producers agree.  Sections refer to
 * each other by index into the section header array and to strings by offset
 * into a string-table section.
 * ---------------------------------------------------------------------------
 */
#define DOF_ID_SIZE 16

typedef struct dof_hdr {
	uint8_t dofh_ident[DOF_ID_SIZE]; /* magic, model, encoding, versions (DOF_ID_*) */
	uint32_t dofh_flags;             /* DOF_FL_* (none valid today) */
	uint32_t dofh_hdrsize;           /* sizeof (dof_hdr_t) */
	uint32_t dofh_secsize;           /* sizeof (dof_sec_t) */
	uint32_t dofh_secnum;            /* number of section headers */
	uint64_t dofh_secoff;            /* file offset of the section headers */
	uint64_t dofh_loadsz;            /* bytes from the start that must be loaded */
	uint64_t dofh_filesz;            /* size of the whole image */
	uint64_t dofh_pad;
} dof_hdr_t;

/* Byte positions within dofh_ident[]. */
#define DOF_ID_MAG0 0
#define DOF_ID_MAG1 1
#define DOF_ID_MAG2 2
#define DOF_ID_MAG3 3
#define DOF_ID_MODEL 4    /* DOF_MODEL_* */
#define DOF_ID_ENCODING 5 /* DOF_ENCODE_* */
#define DOF_ID_VERSION 6  /* DOF_VERSION_* */
#define DOF_ID_DIFVERS 7  /* DIF_VERSION_* */
#define DOF_ID_DIFIREG 8  /* integer registers the compiler used */
#define DOF_ID_DIFTREG 9  /* tuple registers the compiler used */
#define DOF_ID_PAD 10     /* 10..15 are zero */

#define DOF_MAG_MAG0 0x7F
#define DOF_MAG_MAG1 'D'
#define DOF_MAG_MAG2 'O'
#define DOF_MAG_MAG3 'F'
#define DOF_MAG_STRING "\177DOF"
#define DOF_MAG_STRLEN 4

#define DOF_MODEL_NONE 0
#define DOF_MODEL_ILP32 1
#define DOF_MODEL_LP64 2
/* evaluated by the compiler, not the preprocessor: no data-model #if */
#define DOF_MODEL_NATIVE (sizeof(void *) == 8 ? DOF_MODEL_LP64 : DOF_MODEL_ILP32)

#define DOF_ENCODE_NONE 0
#define DOF_ENCODE_LSB 1
#define DOF_ENCODE_MSB 2
#define DOF_ENCODE_NATIVE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? DOF_ENCODE_MSB : DOF_ENCODE_LSB)

#define DOF_VERSION_1 1           /* first release */
#define DOF_VERSION_2 2           /* adds is-enabled probes (DOF_SECT_PRENOFFS) */
#define DOF_VERSION_3 3           /* written by Apple's toolchain; header and sections as in 2 */
#define DOF_VERSION DOF_VERSION_2 /* what we write; we accept 1..3 */

#define DOF_FL_VALID 0 /* mask of the dofh_flags bits that may be set */

typedef uint32_t dof_secidx_t; /* index into the section header array */
typedef uint32_t dof_stridx_t; /* offset into a string-table section */

#define DOF_SECIDX_NONE ((dof_secidx_t)UINT32_MAX)
#define DOF_STRIDX_NONE ((dof_stridx_t)UINT32_MAX)

typedef struct dof_sec {
	uint32_t dofs_type;    /* DOF_SECT_* */
	uint32_t dofs_align;   /* required alignment of the data in memory */
	uint32_t dofs_flags;   /* DOF_SECF_* */
	uint32_t dofs_entsize; /* size of one entry if the section is a table, else 0 */
	uint64_t dofs_offset;  /* file offset of the data */
	uint64_t dofs_size;    /* bytes of data */
} dof_sec_t;

#define DOF_SECT_NONE 0       /* unused slot */
#define DOF_SECT_COMMENTS 1   /* free text from the compiler */
#define DOF_SECT_SOURCE 2     /* the D source */
#define DOF_SECT_ECBDESC 3    /* dof_ecbdesc_t */
#define DOF_SECT_PROBEDESC 4  /* dof_probedesc_t */
#define DOF_SECT_ACTDESC 5    /* dof_actdesc_t[] */
#define DOF_SECT_DIFOHDR 6    /* dof_difohdr_t, variable length */
#define DOF_SECT_DIF 7        /* dif_instr_t[] */
#define DOF_SECT_STRTAB 8     /* NUL-terminated strings */
#define DOF_SECT_VARTAB 9     /* dtrace_difv_t[] */
#define DOF_SECT_RELTAB 10    /* dof_relodesc_t[] */
#define DOF_SECT_TYPTAB 11    /* dtrace_diftype_t[] */
#define DOF_SECT_URELHDR 12   /* dof_relohdr_t: relocations against user symbols */
#define DOF_SECT_KRELHDR 13   /* dof_relohdr_t: relocations against kernel symbols */
#define DOF_SECT_OPTDESC 14   /* dof_optdesc_t[] */
#define DOF_SECT_PROVIDER 15  /* dof_provider_t */
#define DOF_SECT_PROBES 16    /* dof_probe_t[] */
#define DOF_SECT_PRARGS 17    /* uint8_t[]: argument mappings */
#define DOF_SECT_PROFFS 18    /* uint32_t[]: probe site offsets */
#define DOF_SECT_INTTAB 19    /* uint64_t[]: integer table */
#define DOF_SECT_UTSNAME 20   /* struct utsname of the producer (never loaded) */
#define DOF_SECT_XLTAB 21     /* dof_xlref_t[] */
#define DOF_SECT_XLMEMBERS 22 /* dof_xlmember_t[] */
#define DOF_SECT_XLIMPORT 23  /* dof_xlator_t */
#define DOF_SECT_XLEXPORT 24  /* dof_xlator_t */
#define DOF_SECT_PREXPORT 25  /* dof_secidx_t[]: exported objects */
#define DOF_SECT_PRENOFFS 26  /* uint32_t[]: is-enabled site offsets */
#define DOF_SECT_MAX DOF_SECT_PRENOFFS

#define DOF_SECF_LOAD 1 /* the section's data lies in the loadable part */

/* Every known section type except none, comments, source and utsname. */
#define DOF_SEC_ISLOADABLE(x)                                                                      \
	((x) >= DOF_SECT_ECBDESC && (x) <= DOF_SECT_PRENOFFS && (x) != DOF_SECT_UTSNAME)

/* One enabling clause: probe description, predicate, action list. */
typedef struct dof_ecbdesc {
	dof_secidx_t dofe_probes;  /* DOF_SECT_PROBEDESC */
	dof_secidx_t dofe_pred;    /* DOF_SECT_DIFOHDR or DOF_SECIDX_NONE */
	dof_secidx_t dofe_actions; /* DOF_SECT_ACTDESC or DOF_SECIDX_NONE */
	uint32_t dofe_pad;
	uint64_t dofe_uarg; /* consumer's cookie, returned in dtepd_uarg */
} dof_ecbdesc_t;

typedef struct dof_probedesc {
	dof_secidx_t dofp_strtab; /* DOF_SECT_STRTAB holding the four names */
	dof_stridx_t dofp_provider;
	dof_stridx_t dofp_mod;
	dof_stridx_t dofp_func;
	dof_stridx_t dofp_name;
	uint32_t dofp_id; /* a specific probe id, or 0 to match by name */
} dof_probedesc_t;

typedef struct dof_actdesc {
	dof_secidx_t dofa_difo;   /* DOF_SECT_DIFOHDR or DOF_SECIDX_NONE */
	dof_secidx_t dofa_strtab; /* DOF_SECT_STRTAB for a string dofa_arg, or NONE */
	uint32_t dofa_kind;       /* DTRACEACT_* / DTRACEAGG_* */
	uint32_t dofa_ntuple;     /* actions that follow and form this one's key */
	uint64_t dofa_arg;        /* kind-specific (e.g. DTRACE_LQUANTIZE_ARG) */
	uint64_t dofa_uarg;       /* consumer's cookie, returned in dtrd_uarg */
} dof_actdesc_t;

/*
 * A DIFO: its return type, then the indices of the sections that make it up
 * (DIF, INTTAB, STRTAB, VARTAB, URELHDR, KRELHDR, XLTAB in any order; the
 * count follows from dofs_size).
 */
typedef struct dof_difohdr {
	dtrace_diftype_t dofd_rtype;
	dof_secidx_t dofd_links[1]; /* really dofs_size - offsetof(links) bytes */
} dof_difohdr_t;

typedef struct dof_relohdr {
	dof_secidx_t dofr_strtab; /* DOF_SECT_STRTAB with the symbol names */
	dof_secidx_t dofr_relsec; /* DOF_SECT_RELTAB with the entries */
	dof_secidx_t dofr_tgtsec; /* section the entries patch */
} dof_relohdr_t;

typedef struct dof_relodesc {
	dof_stridx_t dofr_name; /* symbol */
	uint32_t dofr_type;     /* DOF_RELO_* */
	uint64_t dofr_offset;   /* byte offset in the target section */
	uint64_t dofr_data;     /* type-specific */
} dof_relodesc_t;

#define DOF_RELO_NONE 0   /* empty entry */
#define DOF_RELO_SETX 1   /* add the symbol's address to an integer-table entry */
#define DOF_RELO_DOFREL 2 /* FreeBSD: value is relative to the DOF image's load address */

typedef struct dof_optdesc {
	uint32_t dofo_option;     /* DTRACEOPT_* */
	dof_secidx_t dofo_strtab; /* DOF_SECT_STRTAB if the value is a string, else NONE */
	uint64_t dofo_value;      /* value, or string offset */
} dof_optdesc_t;

/* Stability attributes packed name | data | class into the top three bytes. */
typedef uint32_t dof_attr_t;
#define DOF_ATTR(n, d, c)                                                                          \
	((dof_attr_t)(((uint32_t)(n) << 24) | ((uint32_t)(d) << 16) | ((uint32_t)(c) << 8)))
#define DOF_ATTR_NAME(a) (((a) >> 24) & 0xffu)
#define DOF_ATTR_DATA(a) (((a) >> 16) & 0xffu)
#define DOF_ATTR_CLASS(a) (((a) >> 8) & 0xffu)

/* A user-space (USDT) provider described by an object file's DOF. */
typedef struct dof_provider {
	dof_secidx_t dofpv_strtab; /* DOF_SECT_STRTAB */
	dof_secidx_t dofpv_probes; /* DOF_SECT_PROBES */
	dof_secidx_t dofpv_prargs; /* DOF_SECT_PRARGS */
	dof_secidx_t dofpv_proffs; /* DOF_SECT_PROFFS */
	dof_stridx_t dofpv_name;
	dof_attr_t dofpv_provattr;
	dof_attr_t dofpv_modattr;
	dof_attr_t dofpv_funcattr;
	dof_attr_t dofpv_nameattr;
	dof_attr_t dofpv_argsattr;
	dof_secidx_t dofpv_prenoffs; /* DOF_SECT_PRENOFFS (DOF version 2 and later) */
} dof_provider_t;

typedef struct dof_probe {
	uint64_t dofpr_addr; /* function address, or offset before relocation */
	dof_stridx_t dofpr_func;
	dof_stridx_t dofpr_name;
	dof_stridx_t dofpr_nargv; /* native argument types, NUL-separated */
	dof_stridx_t dofpr_xargv; /* translated argument types, NUL-separated */
	uint32_t dofpr_argidx;    /* first entry in PRARGS */
	uint32_t dofpr_offidx;    /* first entry in PROFFS */
	uint8_t dofpr_nargc;
	uint8_t dofpr_xargc;
	uint16_t dofpr_noffs;    /* entries in PROFFS */
	uint32_t dofpr_enoffidx; /* first entry in PRENOFFS */
	uint16_t dofpr_nenoffs;  /* entries in PRENOFFS */
	uint16_t dofpr_pad1;
	uint32_t dofpr_pad2;
} dof_probe_t;

typedef struct dof_xlator {
	dof_secidx_t dofxl_members; /* DOF_SECT_XLMEMBERS */
	dof_secidx_t dofxl_strtab;  /* DOF_SECT_STRTAB */
	dof_stridx_t dofxl_argv;    /* input types */
	uint32_t dofxl_argc;
	dof_stridx_t dofxl_type; /* output type */
	dof_attr_t dofxl_attr;
} dof_xlator_t;

typedef struct dof_xlmember {
	dof_secidx_t dofxm_difo; /* DOF_SECT_DIFOHDR computing the member */
	dof_stridx_t dofxm_name;
	dtrace_diftype_t dofxm_type;
} dof_xlmember_t;

typedef struct dof_xlref {
	dof_secidx_t dofxr_xlator; /* DOF_SECT_XLIMPORT/XLEXPORT */
	uint32_t dofxr_member;     /* index into the translator's members */
	uint32_t dofxr_argn;       /* argument for DIF_OP_XLARG */
} dof_xlref_t;

/* Argument of the helper registration call: where an object's DOF lives. */
typedef struct dof_helper {
	char dofhp_mod[DTRACE_MODNAMELEN]; /* object name */
	uint64_t dofhp_addr;               /* load base of the object */
	uint64_t dofhp_dof;                /* address of its DOF */
} dof_helper_t;

/*
 * ---------------------------------------------------------------------------
 * Descriptors exchanged by the control operations
 * ---------------------------------------------------------------------------
 */
typedef struct dtrace_probedesc {
	dtrace_id_t dtpd_id;
	char dtpd_provider[DTRACE_PROVNAMELEN];
	char dtpd_mod[DTRACE_MODNAMELEN];
	char dtpd_func[DTRACE_FUNCNAMELEN];
	char dtpd_name[DTRACE_NAMELEN];
} dtrace_probedesc_t;

/* DTRACE_CTL_REPLICATE: for each probe matching the first, enable as the second. */
typedef struct dtrace_repldesc {
	dtrace_probedesc_t dtrpd_match;
	dtrace_probedesc_t dtrpd_create;
} dtrace_repldesc_t;

/*
 * Records.  The principal buffer holds, for each firing, a record header
 * followed by the data of each action at the offsets its dtrace_recdesc_t
 * gives.  The timestamp is split in two words so records need only 4-byte
 * alignment.
 */
typedef struct dtrace_rechdr {
	dtrace_epid_t dtrh_epid;
	uint32_t dtrh_timestamp_hi;
	uint32_t dtrh_timestamp_lo;
} dtrace_rechdr_t;

#define DTRACE_RECORD_LOAD_TIMESTAMP(dtrh)                                                         \
	(((uint64_t)(dtrh)->dtrh_timestamp_hi << 32) | (uint64_t)(dtrh)->dtrh_timestamp_lo)
#define DTRACE_RECORD_STORE_TIMESTAMP(dtrh, hrtime)                                                \
	do {                                                                                       \
		(dtrh)->dtrh_timestamp_lo = (uint32_t)(uint64_t)(hrtime);                          \
		(dtrh)->dtrh_timestamp_hi = (uint32_t)((uint64_t)(hrtime) >> 32);                  \
	} while (0)

typedef struct dtrace_recdesc {
	dtrace_actkind_t dtrd_action; /* DTRACEACT_* / DTRACEAGG_* */
	uint32_t dtrd_size;           /* bytes */
	uint32_t dtrd_offset;         /* from the start of the record (header included) */
	uint16_t dtrd_alignment;
	uint16_t dtrd_format; /* DTRACE_CTL_FORMAT id, or 0 */
	uint64_t dtrd_arg;    /* the action's dofa_arg */
	uint64_t dtrd_uarg;   /* the action's dofa_uarg */
} dtrace_recdesc_t;

/* DTRACE_CTL_EPROBE: layout of the records an EPID produces. */
typedef struct dtrace_eprobedesc {
	dtrace_epid_t dtepd_epid;
	dtrace_id_t dtepd_probeid;
	uint64_t dtepd_uarg; /* the clause's dofe_uarg */
	uint32_t dtepd_size; /* bytes per record, header included */
	int32_t dtepd_nrecs; /* in: room for this many; out: how many there are */
	dtrace_recdesc_t dtepd_rec[1];
} dtrace_eprobedesc_t;

/* DTRACE_CTL_AGGDESC: layout of an aggregation's key and value. */
typedef struct dtrace_aggdesc {
	DTRACE_PTR(char, dtagd_name);  /* consumer's own; the core leaves it */
	dtrace_aggvarid_t dtagd_varid; /* consumer's own */
	int32_t dtagd_flags;           /* consumer's own */
	dtrace_aggid_t dtagd_id;
	dtrace_epid_t dtagd_epid;
	uint32_t dtagd_size;
	int32_t dtagd_nrecs;
	uint32_t dtagd_pad;
	dtrace_recdesc_t dtagd_rec[1];
} dtrace_aggdesc_t;

/* DTRACE_CTL_FORMAT: the string behind a dtrd_format id. */
typedef struct dtrace_fmtdesc {
	DTRACE_PTR(char, dtfd_string); /* consumer's buffer */
	int32_t dtfd_length;           /* in: buffer size; out: string length + 1 */
	uint16_t dtfd_format;
} dtrace_fmtdesc_t;

#define DTRACE_SIZEOF_EPROBEDESC(desc)                                                             \
	(sizeof(dtrace_eprobedesc_t) +                                                             \
	 ((desc)->dtepd_nrecs > 0 ? ((size_t)(desc)->dtepd_nrecs - 1) * sizeof(dtrace_recdesc_t)   \
	                          : 0))
#define DTRACE_SIZEOF_AGGDESC(desc)                                                                \
	(sizeof(dtrace_aggdesc_t) +                                                                \
	 ((desc)->dtagd_nrecs > 0 ? ((size_t)(desc)->dtagd_nrecs - 1) * sizeof(dtrace_recdesc_t)   \
	                          : 0))

/*
 * DTRACE_CTL_BUFSNAP / AGGSNAP.  The consumer names a CPU and a buffer; the
 * core copies the inactive buffer out (switching first under the switch
 * policy; aggregation buffers always switch) and fills in the rest.
 */
typedef struct dtrace_bufdesc {
	uint64_t dtbd_size;   /* in: room; out: bytes copied */
	uint32_t dtbd_cpu;    /* CPU, or DTRACE_CPUALL */
	uint32_t dtbd_errors; /* errors recorded on this CPU */
	uint64_t dtbd_drops;  /* records dropped for want of room */
	DTRACE_PTR(char, dtbd_data);
	uint64_t dtbd_oldest;    /* offset of the oldest record (ring policy) */
	uint64_t dtbd_timestamp; /* when the snapshot was taken */
} dtrace_bufdesc_t;

/* DTRACE_CTL_STATUS: drops other than buffer-capacity drops, and exit state. */
typedef struct dtrace_status {
	uint64_t dtst_dyndrops;          /* dynamic variable space exhausted */
	uint64_t dtst_dyndrops_rinsing;  /* ... while cleaning was rinsing */
	uint64_t dtst_dyndrops_dirty;    /* ... while dirty entries awaited cleaning */
	uint64_t dtst_specdrops;         /* speculation buffer full */
	uint64_t dtst_specdrops_busy;    /* speculation busy (being committed) */
	uint64_t dtst_specdrops_unavail; /* no free speculation */
	uint64_t dtst_errors;
	uint64_t dtst_filled;          /* fill-policy buffers that filled */
	uint64_t dtst_stkstroverflows; /* ustack() string-table overflows */
	uint64_t dtst_dblerrors;       /* errors inside ERROR probe clauses */
	char dtst_killed;              /* the deadman stopped this consumer */
	char dtst_exiting;             /* exit() has run */
	char dtst_pad[6];
} dtrace_status_t;

/* DTRACE_CTL_CONF: what the core's DIF engine provides. */
typedef struct dtrace_conf {
	uint32_t dtc_difversion; /* DIF_VERSION the core runs */
	uint32_t dtc_difintregs; /* integer registers */
	uint32_t dtc_diftupregs; /* tuple registers */
	uint32_t dtc_ctfmodel;   /* CTF data model of the traced kernel/processes */
	uint32_t dtc_pad[8];
} dtrace_conf_t;

/* DTRACE_CTL_PROBEARG: type of one probe argument. */
typedef struct dtrace_argdesc {
	dtrace_id_t dtargd_id;
	int32_t dtargd_ndx;     /* argument index; DTRACE_ARGNONE when past the last */
	int32_t dtargd_mapping; /* which native argument supplies args[ndx] */
	char dtargd_native[DTRACE_ARGTYPELEN];
	char dtargd_xlate[DTRACE_ARGTYPELEN]; /* translated type, or empty */
} dtrace_argdesc_t;

/*
 * Stability attributes (name and data stability, dependency class) that
 * providers advertise and the compiler combines to report a program's.
 */
typedef uint8_t dtrace_stability_t;
typedef uint8_t dtrace_class_t;

#define DTRACE_STABILITY_INTERNAL 0
#define DTRACE_STABILITY_PRIVATE 1
#define DTRACE_STABILITY_OBSOLETE 2
#define DTRACE_STABILITY_EXTERNAL 3
#define DTRACE_STABILITY_UNSTABLE 4
#define DTRACE_STABILITY_EVOLVING 5
#define DTRACE_STABILITY_STABLE 6
#define DTRACE_STABILITY_STANDARD 7
#define DTRACE_STABILITY_MAX 7

#define DTRACE_CLASS_UNKNOWN 0
#define DTRACE_CLASS_CPU 1
#define DTRACE_CLASS_PLATFORM 2
#define DTRACE_CLASS_GROUP 3
#define DTRACE_CLASS_ISA 4
#define DTRACE_CLASS_COMMON 5
#define DTRACE_CLASS_MAX 5

/* Printed names, indexed by the values above: `const char *n[] = DTRACE_..._NAMES;' */
#define DTRACE_STABILITY_NAMES                                                                     \
	{                                                                                          \
		"Internal", "Private", "Obsolete", "External", "Unstable", "Evolving", "Stable",   \
		    "Standard"                                                                     \
	}
#define DTRACE_CLASS_NAMES                                                                         \
	{                                                                                          \
		"Unknown", "CPU", "Platform", "Group", "ISA", "Common"                             \
	}

typedef struct dtrace_attribute {
	dtrace_stability_t dtat_name;
	dtrace_stability_t dtat_data;
	dtrace_class_t dtat_class;
} dtrace_attribute_t;

typedef struct dtrace_pattr {
	dtrace_attribute_t dtpa_provider;
	dtrace_attribute_t dtpa_mod;
	dtrace_attribute_t dtpa_func;
	dtrace_attribute_t dtpa_name;
	dtrace_attribute_t dtpa_args;
} dtrace_pattr_t;

/* Privilege a consumer needs to see a provider's probes. */
#define DTRACE_PRIV_NONE 0x0000
#define DTRACE_PRIV_KERNEL 0x0001
#define DTRACE_PRIV_USER 0x0002
#define DTRACE_PRIV_PROC 0x0004
#define DTRACE_PRIV_OWNER 0x0008
#define DTRACE_PRIV_ZONEOWNER 0x0010
#define DTRACE_PRIV_ALL                                                                            \
	(DTRACE_PRIV_KERNEL | DTRACE_PRIV_USER | DTRACE_PRIV_PROC | DTRACE_PRIV_OWNER |            \
	 DTRACE_PRIV_ZONEOWNER)

typedef struct dtrace_ppriv {
	uint32_t dtpp_flags; /* DTRACE_PRIV_* */
	uint32_t dtpp_uid;   /* owner, for DTRACE_PRIV_OWNER */
	int32_t dtpp_zoneid; /* zone/jail, for DTRACE_PRIV_ZONEOWNER */
} dtrace_ppriv_t;

/* DTRACE_CTL_PROVIDER */
typedef struct dtrace_providerdesc {
	char dtvd_name[DTRACE_PROVNAMELEN];
	dtrace_pattr_t dtvd_attr;
	dtrace_ppriv_t dtvd_priv;
} dtrace_providerdesc_t;

/*
 * ---------------------------------------------------------------------------
 * Options, set through DOF_SECT_OPTDESC.  Option names live in the consumer.
 * ---------------------------------------------------------------------------
 */
#define DTRACEOPT_BUFSIZE 0
#define DTRACEOPT_BUFPOLICY 1
#define DTRACEOPT_DYNVARSIZE 2
#define DTRACEOPT_AGGSIZE 3
#define DTRACEOPT_SPECSIZE 4
#define DTRACEOPT_NSPEC 5
#define DTRACEOPT_STRSIZE 6
#define DTRACEOPT_CLEANRATE 7
#define DTRACEOPT_CPU 8
#define DTRACEOPT_BUFRESIZE 9
#define DTRACEOPT_GRABANON 10
#define DTRACEOPT_FLOWINDENT 11
#define DTRACEOPT_QUIET 12
#define DTRACEOPT_STACKFRAMES 13
#define DTRACEOPT_USTACKFRAMES 14
#define DTRACEOPT_AGGRATE 15
#define DTRACEOPT_SWITCHRATE 16
#define DTRACEOPT_STATUSRATE 17
#define DTRACEOPT_DESTRUCTIVE 18
#define DTRACEOPT_STACKINDENT 19
#define DTRACEOPT_RAWBYTES 20
#define DTRACEOPT_JSTACKFRAMES 21
#define DTRACEOPT_JSTACKSTRSIZE 22
#define DTRACEOPT_AGGSORTKEY 23
#define DTRACEOPT_AGGSORTREV 24
#define DTRACEOPT_AGGSORTPOS 25
#define DTRACEOPT_AGGSORTKEYPOS 26
#define DTRACEOPT_TEMPORAL 27
#define DTRACEOPT_AGGHIST 28
#define DTRACEOPT_AGGPACK 29
#define DTRACEOPT_AGGZOOM 30
#define DTRACEOPT_ZONE 31
#define DTRACEOPT_MAX 32 /* number of options */

/* -2, so that every non-negative value and -1 remain valid settings */
#define DTRACEOPT_UNSET ((dtrace_optval_t)-2)

#define DTRACEOPT_BUFPOLICY_RING 0
#define DTRACEOPT_BUFPOLICY_FILL 1
#define DTRACEOPT_BUFPOLICY_SWITCH 2

#define DTRACEOPT_BUFRESIZE_AUTO 0
#define DTRACEOPT_BUFRESIZE_MANUAL 1

/*
 * Defaults the core applies to unset options, and the bounds it enforces:
 * the values illumos and FreeBSD ship.  Times are nanoseconds.
 */
#define DTRACE_NANOSEC INT64_C(1000000000)
#define DTRACE_NSPEC_DEFAULT 1
#define DTRACE_SPECSIZE_DEFAULT (32 * 1024)
#define DTRACE_STRSIZE_DEFAULT 256
#define DTRACE_DYNVARSIZE_DEFAULT (1024 * 1024)
#define DTRACE_STACKFRAMES_DEFAULT 20
#define DTRACE_USTACKFRAMES_DEFAULT 20
#define DTRACE_JSTACKFRAMES_DEFAULT 50
#define DTRACE_JSTACKSTRSIZE_DEFAULT 512
#define DTRACE_CLEANRATE_DEFAULT INT64_C(9900990) /* about 101 Hz */
#define DTRACE_CLEANRATE_MIN INT64_C(200000)      /* 5000 Hz */
#define DTRACE_CLEANRATE_MAX (60 * DTRACE_NANOSEC)
#define DTRACE_AGGRATE_DEFAULT DTRACE_NANOSEC
#define DTRACE_SWITCHRATE_DEFAULT DTRACE_NANOSEC
#define DTRACE_STATUSRATE_DEFAULT DTRACE_NANOSEC
#define DTRACE_STATUSRATE_MAX (10 * DTRACE_NANOSEC)
#define DTRACE_CHILL_MAX (DTRACE_NANOSEC / 2) /* longest chill() per interval */
#define DTRACE_CHILL_INTERVAL DTRACE_NANOSEC
#define DTRACE_DEADMAN_INTERVAL DTRACE_NANOSEC
#define DTRACE_DEADMAN_TIMEOUT (10 * DTRACE_NANOSEC)
#define DTRACE_DEADMAN_USER (30 * DTRACE_NANOSEC)

/*
 * ---------------------------------------------------------------------------
 * Faults, reported as arg4 of the ERROR probe (and visible to D through the
 * same constants).  Values from DTRACEFLT_LIBRARY up are consumer-side.
 * ---------------------------------------------------------------------------
 */
#define DTRACEFLT_UNKNOWN 0
#define DTRACEFLT_BADADDR 1  /* load from an unmapped or forbidden address */
#define DTRACEFLT_BADALIGN 2 /* misaligned load */
#define DTRACEFLT_ILLOP 3    /* illegal operation */
#define DTRACEFLT_DIVZERO 4
#define DTRACEFLT_NOSCRATCH 5 /* scratch space exhausted */
#define DTRACEFLT_KPRIV 6     /* kernel access without privilege */
#define DTRACEFLT_UPRIV 7     /* user access without privilege */
#define DTRACEFLT_TUPOFLOW 8  /* tuple stack overflow */
#define DTRACEFLT_BADSTACK 9  /* stack could not be walked */
#define DTRACEFLT_LIBRARY 1000

/*
 * ---------------------------------------------------------------------------
 * Control operations between consumer and core.
 *
 * Each value equals the low byte of the matching DTRACEIOC_* ioctl, so a
 * kernel port maps one to the other directly; the Linux host calls the core
 * with them.  The argument each takes:
 *   PROVIDER    dtrace_providerdesc_t  in: name; out: attributes, privilege
 *   PROBES      dtrace_probedesc_t     in: id to start from and filter; out: next probe
 *   BUFSNAP     dtrace_bufdesc_t       principal buffer snapshot
 *   PROBEMATCH  dtrace_probedesc_t     like PROBES, glob matching on names
 *   ENABLE      DOF image (dof_hdr_t)  out: number of probes enabled
 *   AGGSNAP     dtrace_bufdesc_t       aggregation buffer snapshot
 *   EPROBE      dtrace_eprobedesc_t    in: epid, room; out: record layout
 *   PROBEARG    dtrace_argdesc_t       in: probe id, index; out: types, mapping
 *   CONF        dtrace_conf_t
 *   STATUS      dtrace_status_t
 *   GO          int32_t                out: CPU that ran BEGIN
 *   STOP        int32_t                out: CPU that ran END
 *   AGGDESC     dtrace_aggdesc_t       in: aggid, room; out: record layout
 *   FORMAT      dtrace_fmtdesc_t       in: format id, buffer; out: string
 *   DOFGET      dof_hdr_t + room       in: dofh_loadsz = room; out: anonymous enabling
 *   REPLICATE   dtrace_repldesc_t
 * ---------------------------------------------------------------------------
 */
typedef enum dtrace_ctl {
	DTRACE_CTL_PROVIDER = 1,
	DTRACE_CTL_PROBES = 2,
	DTRACE_CTL_BUFSNAP = 4,
	DTRACE_CTL_PROBEMATCH = 5,
	DTRACE_CTL_ENABLE = 6,
	DTRACE_CTL_AGGSNAP = 7,
	DTRACE_CTL_EPROBE = 8,
	DTRACE_CTL_PROBEARG = 9,
	DTRACE_CTL_CONF = 10,
	DTRACE_CTL_STATUS = 11,
	DTRACE_CTL_GO = 12,
	DTRACE_CTL_STOP = 13,
	DTRACE_CTL_AGGDESC = 15,
	DTRACE_CTL_FORMAT = 16,
	DTRACE_CTL_DOFGET = 17,
	DTRACE_CTL_REPLICATE = 18
} dtrace_ctl_t;

/*
 * The ENABLE argument of the FreeBSD and NetBSD ioctl: where the DOF image is
 * (the consumer's address), and the number of probes it matched on return.
 * illumos passes the image's address itself and returns the count as the
 * ioctl's value.  16 bytes on LP64, as their dtrace_enable_io_t.
 */
typedef struct dtrace_enable_io {
	DTRACE_PTR(void, dof);
	int32_t n_matched;
	int32_t dtei_pad;
} dtrace_enable_io_t;

/* Helper (USDT/ustack helper) operations; the low byte of DTRACEHIOC_*. */
typedef enum dtrace_helper_ctl {
	DTRACE_HCTL_ADD = 1,    /* legacy: raw DOF */
	DTRACE_HCTL_REMOVE = 2, /* argument: the generation ADDDOF returned */
	DTRACE_HCTL_ADDDOF = 3  /* argument: dof_helper_t */
} dtrace_helper_ctl_t;

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_ABI_H */
