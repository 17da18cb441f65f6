/*
 * tests/isa/step_x86_64.c: probed instructions run as they run natively.
 *
 * For each instruction of a table we generate a small harness in an
 * executable page: load every general register and the arithmetic flags
 * from a state block, run the instruction, then record every register, the
 * flags and which of two landings (fall-through A or branch target B) was
 * reached.  The harness runs twice from identical state: once as is, and
 * once with an int3 over the instruction, where a SIGTRAP handler does what
 * a port does (ucontext to isa_regs_t, isa_probe_step, the trampoline from
 * isa_probe_tramp, isa_probe_step_done at the closing int3, and back).  The
 * two runs must agree on registers, flags, landing, the data the
 * instruction may write and the stack around %rsp.  Every row is run under
 * several flag states, so each jcc is seen taken and not taken.
 *
 * Then the fault contract: an emulated access to an unmapped stack,
 * pointer or RIP-relative word, or a branch to a non-canonical address,
 * gives ISA_STEP_FAULT with the address and untouched registers.
 *
 * Linux and x86_64 only (ucontext, mmap); the ISA code under test is not.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "isa.h"
#include "insn_ops.h"
#include "isa_test.h"

/* Register numbers as x86 encodes them. */
enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15, NGPR };

static const char *const gpr_name[NGPR] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                           "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

/* Encoding order -> isa_regs_t index and -> glibc's gregs index. */
static const int isa_of[NGPR] = {ISA_REG_RAX, ISA_REG_RCX, ISA_REG_RDX, ISA_REG_RBX,
                                 ISA_REG_RSP, ISA_REG_RBP, ISA_REG_RSI, ISA_REG_RDI,
                                 ISA_REG_R8,  ISA_REG_R9,  ISA_REG_R10, ISA_REG_R11,
                                 ISA_REG_R12, ISA_REG_R13, ISA_REG_R14, ISA_REG_R15};
static const int greg_of[NGPR] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                  REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                  REG_R12, REG_R13, REG_R14, REG_R15};

#define FL_CF 0x001
#define FL_PF 0x004
#define FL_AF 0x010
#define FL_ZF 0x040
#define FL_SF 0x080
#define FL_OF 0x800
#define FL_ARITH (FL_CF | FL_PF | FL_AF | FL_ZF | FL_SF | FL_OF)

/* The harness's state block, reached RIP-relative from the generated code. */
typedef struct state {
	uint64_t in[NGPR];
	uint64_t in_rfl;
	uint64_t out[NGPR];
	uint64_t out_rfl;
	uint64_t host_rsp;
	uint64_t landing; /* 1: fell through, 2: branch target */
} state_t;

#define DATA_SIZE 0x80
#define SLOT_OFF 0x40 /* data + SLOT_OFF holds landing B's address */
#define STACK_SIZE 0x10000
#define WINDOW 0x80 /* stack bytes compared on each side of the initial %rsp */

static struct env {
	size_t pg;
	uint8_t *code;  /* harness page */
	state_t *st;    /* in the data page */
	uint8_t *data;  /* DATA_SIZE bytes the instruction may touch */
	uint8_t *tramp; /* trampoline page */
	uint8_t *stack;
	uint64_t rsp0;
	uint8_t *site;
	uint64_t land_b;
} E;

/* What the SIGTRAP handler needs, as a port keeps it. */
static struct probe {
	isa_probe_insn_t pi;
	uintptr_t site, tramp;
	uint64_t save;
	int steps, dones, rc;
} P;

/* ---- code generation ---- */

typedef struct emit {
	uint8_t *p;
} emit_t;

static void
put(emit_t *e, const uint8_t *b, size_t n)
{
	memcpy(e->p, b, n);
	e->p += n;
}

static void
put1(emit_t *e, uint8_t b)
{
	*e->p++ = b;
}

static void
put32(emit_t *e, int64_t v)
{
	int32_t w = (int32_t)v;

	memcpy(e->p, &w, 4);
	e->p += 4;
}

/* op bytes, a disp32 reaching target from the instruction's end, tail bytes */
static void
put_rip(emit_t *e, const uint8_t *op, size_t n, const void *target, const uint8_t *tail,
        size_t ntail)
{
	put(e, op, n);
	put32(e, (intptr_t)target - (intptr_t)(e->p + 4 + ntail));
	put(e, tail, ntail);
}

static void
mov_load(emit_t *e, int r, const void *src)
{
	uint8_t op[3] = {r < 8 ? 0x48 : 0x4c, 0x8b, (uint8_t)(((r & 7) << 3) | 5)};

	put_rip(e, op, 3, src, NULL, 0);
}

static void
mov_store(emit_t *e, int r, void *dst)
{
	uint8_t op[3] = {r < 8 ? 0x48 : 0x4c, 0x89, (uint8_t)(((r & 7) << 3) | 5)};

	put_rip(e, op, 3, dst, NULL, 0);
}

static void
landing(emit_t *e, uint8_t id, const uint8_t *common)
{
	static const uint8_t movb[] = {0xc6, 0x05};

	put_rip(e, movb, 2, &E.st->landing, &id, 1);
	put1(e, 0xe9);
	put32(e, (intptr_t)common - (intptr_t)(e->p + 4));
}

/* ---- the table ---- */

enum fix {
	FIX_NONE,
	FIX_REL8_B,  /* rel8 at fix_at to landing B */
	FIX_REL32_B, /* rel32 at fix_at to landing B */
	FIX_DISP,    /* disp32 at fix_at to data + fix_add, from the instruction's end */
};

typedef struct xcase {
	const char *name;
	uint8_t b[16];
	uint8_t len;
	uint8_t fix, fix_at, fix_add;
	uint8_t post[8]; /* run after the instruction on fall-through: moves
	                  * what it left in a vector register into a GPR */
	uint8_t npost;
	uint8_t op; /* the X86_OP_* prepare must choose */
	void (*setup)(uint64_t *in);
	uint32_t ignore; /* registers (1 << encoding) not compared */
} xcase_t;

static void
rax_land_b(uint64_t *in)
{
	in[RAX] = E.land_b;
}

static void
r11_land_b(uint64_t *in)
{
	in[R11] = E.land_b;
}

static void
rax_slot_m8(uint64_t *in)
{
	in[RAX] = (uint64_t)(uintptr_t)(E.data + SLOT_OFF - 8);
}

static void
rax_slot_table(uint64_t *in)
{
	in[RAX] = (uint64_t)(uintptr_t)(E.data + SLOT_OFF - 16);
	in[RCX] = 2;
}

static void
rcx0(uint64_t *in)
{
	in[RCX] = 0;
}

static void
rcx1(uint64_t *in)
{
	in[RCX] = 1;
}

static void
rcx5(uint64_t *in)
{
	in[RCX] = 5;
}

static void
rax_max(uint64_t *in)
{
	in[RAX] = 0x7fffffffffffffffull;
}

static void
rax_m1(uint64_t *in)
{
	in[RAX] = ~0ull;
}

static void
rax_0(uint64_t *in)
{
	in[RAX] = 0;
}

static void
rax_0f(uint64_t *in)
{
	in[RAX] = 0x0f;
}

static void
rax_min(uint64_t *in)
{
	in[RAX] = 0x8000000000000000ull;
}

static void
rax_getpid(uint64_t *in)
{
	in[RAX] = 39; /* SYS_getpid */
}

static void
rbp_frame(uint64_t *in)
{
	in[RBP] = E.rsp0 + 0x20;
}

static void
rax_data(uint64_t *in)
{
	in[RAX] = (uint64_t)(uintptr_t)E.data;
}

#define MOVQ_XMM0_RAX {0x66, 0x48, 0x0f, 0x7e, 0xc0}, 5
#define BIT(r) (1u << (r))

/* One row per line reads better than clang-format's layout. */
/* clang-format off */
static const xcase_t cases[] = {
	/* emulated */
	{"nop", {0x90}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_NEXT, NULL, 0},
	{"nopw 0(%rax,%rax)", {0x66, 0x0f, 0x1f, 0x44, 0, 0}, 6, FIX_NONE, 0, 0, {0}, 0, X86_OP_NEXT,
	 NULL, 0},
	{"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_NEXT, NULL, 0},
	{"push %rbp", {0x55}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_PUSH_REG, NULL, 0},
	{"push %r12", {0x41, 0x54}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_PUSH_REG, NULL, 0},
	{"push %rsp", {0x54}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_PUSH_REG, NULL, 0},
	{"mov %rsp,%rbp", {0x48, 0x89, 0xe5}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_MOV_REG, NULL, 0},
	{"mov %r9,%rdi (8b form)", {0x49, 0x8b, 0xf9}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_MOV_REG,
	 NULL, 0},
	{"sub $0x18,%rsp", {0x48, 0x83, 0xec, 0x18}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_ADDSUB_IMM,
	 NULL, 0},
	{"sub $0x1000,%rsp", {0x48, 0x81, 0xec, 0, 0x10, 0, 0}, 7, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, NULL, 0},
	{"add $0x18,%rsp", {0x48, 0x83, 0xc4, 0x18}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_ADDSUB_IMM,
	 NULL, 0},
	{"add $1,%rax (overflow)", {0x48, 0x83, 0xc0, 1}, 4, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, rax_max, 0},
	{"add $1,%rax (carry, zero)", {0x48, 0x83, 0xc0, 1}, 4, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, rax_m1, 0},
	{"add $1,%rax (adjust)", {0x48, 0x83, 0xc0, 1}, 4, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, rax_0f, 0},
	{"sub $1,%rax (borrow)", {0x48, 0x83, 0xe8, 1}, 4, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, rax_0, 0},
	{"sub $1,%rax (overflow)", {0x48, 0x83, 0xe8, 1}, 4, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, rax_min, 0},
	{"add $-0x80,%rax", {0x48, 0x83, 0xc0, 0x80}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_ADDSUB_IMM,
	 NULL, 0},
	{"sub $-0x7fffffff,%rbx", {0x48, 0x81, 0xeb, 0x01, 0, 0, 0x80}, 7, FIX_NONE, 0, 0, {0}, 0,
	 X86_OP_ADDSUB_IMM, NULL, 0},
	{"ret", {0xc3}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_RET, NULL, 0},
	{"rep ret", {0xf3, 0xc3}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_RET, NULL, 0},
	{"ret $0x10", {0xc2, 0x10, 0}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_RET, NULL, 0},
	{"jmp rel8", {0xeb, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_JMP, NULL, 0},
	{"jmp rel32", {0xe9, 0, 0, 0, 0}, 5, FIX_REL32_B, 1, 0, {0}, 0, X86_OP_JMP, NULL, 0},
	{"call rel32", {0xe8, 0, 0, 0, 0}, 5, FIX_REL32_B, 1, 0, {0}, 0, X86_OP_CALL, NULL, 0},
	{"loop (rcx 1: not taken)", {0xe2, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx1, 0},
	{"loop (rcx 5: taken)", {0xe2, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx5, 0},
	{"loop (rcx 0: wraps, taken)", {0xe2, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx0, 0},
	{"loope", {0xe1, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx5, 0},
	{"loopne", {0xe0, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx5, 0},
	{"jrcxz (rcx 0)", {0xe3, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx0, 0},
	{"jrcxz (rcx 1)", {0xe3, 0}, 2, FIX_REL8_B, 1, 0, {0}, 0, X86_OP_LOOP, rcx1, 0},
	{"jmp *%rax", {0xff, 0xe0}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_JMP_IND, rax_land_b, 0},
	{"jmp *%r11", {0x41, 0xff, 0xe3}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_JMP_IND, r11_land_b, 0},
	{"call *%rax", {0xff, 0xd0}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_CALL_IND, rax_land_b, 0},
	{"call *8(%rax)", {0xff, 0x50, 0x08}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_CALL_IND,
	 rax_slot_m8, 0},
	{"jmp *(%rax,%rcx,8)", {0xff, 0x24, 0xc8}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_JMP_IND,
	 rax_slot_table, 0},
	{"jmp *slot(%rip)", {0xff, 0x25, 0, 0, 0, 0}, 6, FIX_DISP, 2, SLOT_OFF, {0}, 0,
	 X86_OP_JMP_IND, NULL, 0},
	{"call *slot(%rip)", {0xff, 0x15, 0, 0, 0, 0}, 6, FIX_DISP, 2, SLOT_OFF, {0}, 0,
	 X86_OP_CALL_IND, NULL, 0},
	/* emulated: RIP-relative loads into 64- and 32-bit registers, and lea */
	{"mov x(%rip),%rax", {0x48, 0x8b, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 8, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"mov x(%rip),%ecx (zero-extends)", {0x8b, 0x0d, 0, 0, 0, 0}, 6, FIX_DISP, 2, 12, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"mov x(%rip),%r8", {0x4c, 0x8b, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 16, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"mov x(%rip),%r11d", {0x44, 0x8b, 0x1d, 0, 0, 0, 0}, 7, FIX_DISP, 3, 20, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"mov x(%rip),%rax with REX.B", {0x49, 0x8b, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 8, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"mov x+3(%rip),%rsi (misaligned)", {0x48, 0x8b, 0x35, 0, 0, 0, 0}, 7, FIX_DISP, 3, 3, {0}, 0,
	 X86_OP_LOAD_RIP, NULL, 0},
	{"lea x(%rip),%rdi", {0x48, 0x8d, 0x3d, 0, 0, 0, 0}, 7, FIX_DISP, 3, 0, {0}, 0,
	 X86_OP_SET_REG, NULL, 0},
	{"lea x(%rip),%esi (cut to 32 bits)", {0x8d, 0x35, 0, 0, 0, 0}, 6, FIX_DISP, 2, 8, {0}, 0,
	 X86_OP_SET_REG, NULL, 0},
	/* out of line, as is */
	{"pop %rbx", {0x5b}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	{"leave", {0xc9}, 1, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, rbp_frame, 0},
	{"xor %eax,%eax", {0x31, 0xc0}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	{"imul %rcx,%rdx", {0x48, 0x0f, 0xaf, 0xd1}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	{"push $-5", {0x6a, 0xfb}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	{"lea 8(%rsp),%rax", {0x48, 0x8d, 0x44, 0x24, 0x08}, 5, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL,
	 NULL, 0},
	{"mov (%rsp),%rax", {0x48, 0x8b, 0x04, 0x24}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	{"addq $7,(%rax)", {0x48, 0x83, 0x00, 0x07}, 4, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, rax_data,
	 0},
	{"sub %rcx,%rax", {0x48, 0x29, 0xc8}, 3, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, NULL, 0},
	/* the return address in %rcx is the copy's; the ABI clobbers it */
	{"syscall (getpid)", {0x0f, 0x05}, 2, FIX_NONE, 0, 0, {0}, 0, X86_OP_OOL, rax_getpid,
	 BIT(RCX)},
	/* out of line through a scratch register */
	{"mov %rdx,x(%rip)", {0x48, 0x89, 0x15, 0, 0, 0, 0}, 7, FIX_DISP, 3, 24, {0}, 0,
	 X86_OP_OOL_RIP, NULL, 0},
	{"movl $imm32,x(%rip)", {0xc7, 0x05, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12}, 10, FIX_DISP, 2, 4,
	 {0}, 0, X86_OP_OOL_RIP, NULL, 0},
	{"mov x(%rip),%ax (upper bits kept)", {0x66, 0x8b, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 8, {0},
	 0, X86_OP_OOL_RIP, NULL, 0},
	{"mov x(%rip),%bl", {0x8a, 0x1d, 0, 0, 0, 0}, 6, FIX_DISP, 2, 8, {0}, 0, X86_OP_OOL_RIP,
	 NULL, 0},
	{"cmp %rax,x(%rip)", {0x48, 0x39, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 8, {0}, 0,
	 X86_OP_OOL_RIP, NULL, 0},
	{"cmpq $1,x(%rip)", {0x48, 0x83, 0x3d, 0, 0, 0, 0, 0x01}, 8, FIX_DISP, 3, 16, {0}, 0,
	 X86_OP_OOL_RIP, NULL, 0},
	{"add %rax,x(%rip)", {0x48, 0x01, 0x05, 0, 0, 0, 0}, 7, FIX_DISP, 3, 32, {0}, 0,
	 X86_OP_OOL_RIP, NULL, 0},
	{"shlq %cl,x(%rip)", {0x48, 0xd3, 0x25, 0, 0, 0, 0}, 7, FIX_DISP, 3, 40, {0}, 0,
	 X86_OP_OOL_RIP, rcx5, 0},
	{"push x(%rip)", {0xff, 0x35, 0, 0, 0, 0}, 6, FIX_DISP, 2, 8, {0}, 0, X86_OP_OOL_RIP, NULL, 0},
	{"cmpxchg16b x(%rip)", {0x48, 0x0f, 0xc7, 0x0d, 0, 0, 0, 0}, 8, FIX_DISP, 4, 16, {0}, 0,
	 X86_OP_OOL_RIP, NULL, 0},
	{"movq x(%rip),%xmm0", {0xf3, 0x0f, 0x7e, 0x05, 0, 0, 0, 0}, 8, FIX_DISP, 4, 24,
	 MOVQ_XMM0_RAX, X86_OP_OOL_RIP, NULL, 0},
	{"vmovdqu x(%rip),%xmm0 (VEX2)", {0xc5, 0xfa, 0x6f, 0x05, 0, 0, 0, 0}, 8, FIX_DISP, 4, 16,
	 MOVQ_XMM0_RAX, X86_OP_OOL_RIP, NULL, 0},
	{"vpbroadcastq x(%rip),%xmm0 (VEX3)", {0xc4, 0xe2, 0x79, 0x59, 0x05, 0, 0, 0, 0}, 9, FIX_DISP,
	 5, 8, MOVQ_XMM0_RAX, X86_OP_OOL_RIP, NULL, 0},
};
/* clang-format on */

/* Flag states every row runs under. */
static const uint64_t flag_sets[] = {
    0, FL_CF, FL_ZF, FL_SF, FL_OF, FL_PF, FL_CF | FL_ZF, FL_SF | FL_OF, FL_ZF | FL_SF | FL_AF,
};
#define NFLAGS (sizeof(flag_sets) / sizeof(flag_sets[0]))

/* ---- running ---- */

static void
gen_harness(const xcase_t *c)
{
	static const uint8_t prologue[] = {0x53, 0x55, 0x41, 0x54, 0x41,
	                                   0x55, 0x41, 0x56, 0x41, 0x57};
	static const uint8_t epilogue[] = {0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d,
	                                   0x41, 0x5c, 0x5d, 0x5b, 0xc3};
	static const uint8_t push_mem[] = {0xff, 0x35}, pop_mem[] = {0x8f, 0x05};
	uint8_t *common = E.code + 0x400, *land_a, *land_b, *insn;
	emit_t e = {E.code};
	int r;

	memset(E.code, 0xcc, E.pg);
	put(&e, prologue, sizeof(prologue));
	mov_store(&e, RSP, &E.st->host_rsp);
	mov_load(&e, RSP, &E.st->in[RSP]);
	put_rip(&e, push_mem, 2, &E.st->in_rfl, NULL, 0);
	put1(&e, 0x9d); /* popfq */
	for (r = 0; r < NGPR; r++)
		if (r != RSP)
			mov_load(&e, r, &E.st->in[r]);

	E.site = insn = e.p;
	put(&e, c->b, c->len);
	put(&e, c->post, c->npost);
	land_a = e.p;
	landing(&e, 1, common);
	land_b = e.p;
	landing(&e, 2, common);
	E.land_b = (uint64_t)(uintptr_t)land_b;

	switch (c->fix) {
	case FIX_REL8_B:
		insn[c->fix_at] = (uint8_t)(int8_t)(land_b - (insn + c->len));
		break;
	case FIX_REL32_B: {
		int32_t d = (int32_t)(land_b - (insn + c->len));

		memcpy(insn + c->fix_at, &d, 4);
		break;
	}
	case FIX_DISP: {
		int32_t d = (int32_t)((E.data + c->fix_add) - (insn + c->len));

		memcpy(insn + c->fix_at, &d, 4);
		break;
	}
	default:
		break;
	}
	(void)land_a;

	e.p = common;
	for (r = 0; r < NGPR; r++)
		mov_store(&e, r, &E.st->out[r]);
	/* Back on the host stack before pushfq, so the test stack holds only
	 * what the instruction wrote. */
	mov_load(&e, RSP, &E.st->host_rsp);
	put1(&e, 0x9c); /* pushfq */
	put_rip(&e, pop_mem, 2, &E.st->out_rfl, NULL, 0);
	put(&e, epilogue, sizeof(epilogue));
	__builtin___clear_cache((char *)E.code, (char *)E.code + E.pg);
}

static void
reset_state(const xcase_t *c, uint64_t flags)
{
	uint64_t v;
	size_t i;
	int r;

	memset(E.st, 0, sizeof(*E.st));
	for (r = 0; r < NGPR; r++)
		E.st->in[r] = 0x1111111111111111ull * (uint64_t)(r + 1) + 0x0102030405060708ull;
	E.st->in[RSP] = E.rsp0;
	E.st->in_rfl = 0x202 | flags;
	if (c->setup != NULL)
		c->setup(E.st->in);
	for (i = 0; i < DATA_SIZE; i += 8) {
		v = 0x8070605040302010ull ^ (i * 0x0101010101010101ull);
		memcpy(E.data + i, &v, 8);
	}
	memcpy(E.data + SLOT_OFF, &E.land_b, 8);
	for (i = 0; i < 2 * WINDOW; i += 8) {
		v = 0xa5a5000000000000ull | i;
		memcpy((uint8_t *)(uintptr_t)E.rsp0 - WINDOW + i, &v, 8);
	}
	/* What ret pops. */
	memcpy((uint8_t *)(uintptr_t)E.rsp0, &E.land_b, 8);
}

typedef struct outcome {
	state_t st;
	uint8_t data[DATA_SIZE];
	uint8_t window[2 * WINDOW];
} outcome_t;

static void
run(outcome_t *o)
{
	((void (*)(void))(uintptr_t)E.code)();
	o->st = *E.st;
	memcpy(o->data, E.data, DATA_SIZE);
	memcpy(o->window, (uint8_t *)(uintptr_t)E.rsp0 - WINDOW, sizeof(o->window));
}

static void
uc_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	int r;

	memset(regs, 0, sizeof(*regs));
	for (r = 0; r < NGPR; r++)
		regs->r[isa_of[r]] = (uint64_t)uc->uc_mcontext.gregs[greg_of[r]];
	regs->r[ISA_REG_RIP] = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	regs->r[ISA_REG_RFL] = (uint64_t)uc->uc_mcontext.gregs[REG_EFL];
}

static void
regs_to_uc(const isa_regs_t *regs, ucontext_t *uc)
{
	int r;

	for (r = 0; r < NGPR; r++)
		uc->uc_mcontext.gregs[greg_of[r]] = (greg_t)regs->r[isa_of[r]];
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)regs->r[ISA_REG_RIP];
	uc->uc_mcontext.gregs[REG_EFL] = (greg_t)regs->r[ISA_REG_RFL];
}

static void
die(const char *msg)
{
	ssize_t n = write(2, msg, strlen(msg));

	(void)n;
	_exit(3);
}

/* What a port's SIGTRAP handler does for an instruction probe. */
static void
on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t at = isa_breakpoint_site((uintptr_t)uc->uc_mcontext.gregs[REG_RIP]);
	uintptr_t fault = 0;
	isa_regs_t regs;

	(void)sig;
	(void)si;
	uc_to_regs(uc, &regs);
	if (at == P.site) {
		P.steps++;
		P.rc = isa_probe_step(&P.pi, P.site, P.tramp, &regs, &P.save, &fault);
		if (P.rc == ISA_STEP_FAULT)
			die("step_x86_64: unexpected ISA_STEP_FAULT\n");
	} else if (P.pi.pi_tramp_bp != 0 && at == P.tramp + P.pi.pi_tramp_bp - 1) {
		P.dones++;
		isa_probe_step_done(&P.pi, P.site, &regs, P.save);
	} else {
		die("step_x86_64: trap at an unexpected address\n");
	}
	regs_to_uc(&regs, uc);
}

/* A fault inside the nofault primitives resumes at their landing pad, as
 * the Linux port does; any other fault is the test's own bug. */
static void
on_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;

	if (!isa_nofault_contains((uintptr_t)g[REG_RIP])) {
		signal(sig, SIG_DFL);
		return;
	}
	g[REG_RAX] = (greg_t)(uintptr_t)si->si_addr;
	g[REG_RDX] = 1;
	g[REG_RIP] = (greg_t)(uintptr_t)isa_nofault_pad;
}

static void
compare(const xcase_t *c, uint64_t flags, const outcome_t *want, const outcome_t *got)
{
	int r;

	for (r = 0; r < NGPR; r++)
		if (!(c->ignore & BIT(r)))
			CHECK(want->st.out[r] == got->st.out[r],
			      "%s (flags %#" PRIx64 "): %%%s %#" PRIx64 ", natively %#" PRIx64,
			      c->name, flags, gpr_name[r], got->st.out[r], want->st.out[r]);
	CHECK((want->st.out_rfl & FL_ARITH) == (got->st.out_rfl & FL_ARITH),
	      "%s (flags %#" PRIx64 "): rflags %#" PRIx64 ", natively %#" PRIx64, c->name, flags,
	      got->st.out_rfl, want->st.out_rfl);
	CHECK(want->st.landing == got->st.landing,
	      "%s (flags %#" PRIx64 "): landed at %" PRIu64 ", natively %" PRIu64, c->name, flags,
	      got->st.landing, want->st.landing);
	CHECK(memcmp(want->data, got->data, DATA_SIZE) == 0,
	      "%s (flags %#" PRIx64 "): data differs", c->name, flags);
	CHECK(memcmp(want->window, got->window, sizeof(want->window)) == 0,
	      "%s (flags %#" PRIx64 "): stack differs", c->name, flags);
}

static void
run_case(const xcase_t *c, int *taken_seen)
{
	outcome_t want, got;
	size_t f, n;

	gen_harness(c);
	if (isa_probe_prepare(E.site, c->len, (uintptr_t)E.site, &P.pi) != 0) {
		CHECK(0, "%s: refused", c->name);
		return;
	}
	CHECK(P.pi.pi_op == c->op, "%s: op %u, want %u", c->name, P.pi.pi_op, c->op);
	P.site = (uintptr_t)E.site;
	P.tramp = (uintptr_t)E.tramp;
	memset(E.tramp, 0xcc, E.pg);
	n = isa_probe_tramp(&P.pi, P.site, P.tramp, E.tramp, E.pg);
	CHECK(n == P.pi.pi_tramp_len, "%s: trampoline %zu bytes", c->name, n);
	__builtin___clear_cache((char *)E.tramp, (char *)E.tramp + E.pg);

	for (f = 0; f < NFLAGS; f++) {
		reset_state(c, flag_sets[f]);
		run(&want);
		if (want.st.landing == 2)
			(*taken_seen)++;

		reset_state(c, flag_sets[f]);
		E.site[0] = 0xcc;
		P.steps = P.dones = 0;
		P.rc = -1;
		run(&got);
		memcpy(E.site, c->b, 1);

		CHECK(P.steps == 1, "%s: stepped %d times", c->name, P.steps);
		CHECK(P.rc == (n != 0 ? ISA_STEP_TRAMP : ISA_STEP_DONE), "%s: step returned %d",
		      c->name, P.rc);
		CHECK(P.dones == (P.pi.pi_tramp_bp != 0), "%s: %d closing breakpoints", c->name,
		      P.dones);
		compare(c, flag_sets[f], &want, &got);
	}
}

/* Every jcc, rel8 and rel32, must be seen both taken and not taken. */
static void
test_jcc(void)
{
	xcase_t c;
	char name[64];
	unsigned cc;
	int taken;

	for (cc = 0; cc < 16; cc++) {
		memset(&c, 0, sizeof(c));
		c.name = name;
		c.op = X86_OP_JCC;

		snprintf(name, sizeof(name), "jcc rel8 %#x", 0x70 + cc);
		c.b[0] = (uint8_t)(0x70 + cc);
		c.len = 2;
		c.fix = FIX_REL8_B;
		c.fix_at = 1;
		taken = 0;
		run_case(&c, &taken);
		CHECK(taken > 0 && taken < (int)NFLAGS, "%s: taken %d of %zu", name, taken, NFLAGS);

		snprintf(name, sizeof(name), "jcc rel32 0f %#x", 0x80 + cc);
		memset(c.b, 0, sizeof(c.b));
		c.b[0] = 0x0f;
		c.b[1] = (uint8_t)(0x80 + cc);
		c.len = 6;
		c.fix = FIX_REL32_B;
		c.fix_at = 2;
		taken = 0;
		run_case(&c, &taken);
		CHECK(taken > 0 && taken < (int)NFLAGS, "%s: taken %d of %zu", name, taken, NFLAGS);
	}
}

static void
test_table(void)
{
	size_t i;
	int taken;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], &taken);
}

/* ---- the fault contract ---- */

static void
expect_fault(const char *name, const uint8_t *insn, size_t len, uintptr_t pc, isa_regs_t *regs,
             uintptr_t want_addr)
{
	isa_probe_insn_t pi;
	isa_regs_t before = *regs;
	uintptr_t fa = 0;
	uint64_t save = 0;
	int rc;

	if (isa_probe_prepare(insn, len, pc, &pi) != 0) {
		CHECK(0, "%s: refused", name);
		return;
	}
	rc = isa_probe_step(&pi, pc, 0x1000, regs, &save, &fa);
	CHECK(rc == ISA_STEP_FAULT, "%s: step returned %d", name, rc);
	CHECK(fa == want_addr, "%s: fault address %#lx, want %#lx", name, (unsigned long)fa,
	      (unsigned long)want_addr);
	CHECK(memcmp(&before, regs, sizeof(before)) == 0, "%s: registers changed", name);
}

static void
test_faults(void)
{
	static const uint8_t push[] = {0x55}, call[] = {0xe8, 0, 0, 0, 0}, ret[] = {0xc3};
	static const uint8_t callr[] = {0xff, 0x50, 0x08}, jmprip[] = {0xff, 0x25, 0, 0, 0, 0};
	static const uint8_t calli[] = {0xff, 0xd0};
	static const uint8_t movrip[] = {0x48, 0x8b, 0x05, 0, 0, 0, 0};
	static const uint8_t movrip32[] = {0x8b, 0x05, 0, 0, 0, 0};
	uint8_t *m =
	    mmap(NULL, 2 * E.pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t guard = (uintptr_t)m + E.pg;
	isa_probe_insn_t zero;
	isa_regs_t regs;
	uintptr_t fa = 0;
	uint64_t save = 0;

	if (m == MAP_FAILED) {
		CHECK(0, "mmap");
		return;
	}
	mprotect(m + E.pg, E.pg, PROT_NONE);
	memset(&regs, 0, sizeof(regs));
	regs.r[ISA_REG_RIP] = 0x401001;
	regs.r[ISA_REG_RFL] = 0x246;

	/* a stack that ends at the guard page: pushes and calls fault */
	regs.r[ISA_REG_RSP] = guard + 8;
	expect_fault("push %rbp into the guard page", push, sizeof(push), 0x401000, &regs, guard);
	expect_fault("call rel32 into the guard page", call, sizeof(call), 0x401000, &regs, guard);
	regs.r[ISA_REG_RAX] = (uintptr_t)m;
	expect_fault("call *%rax into the guard page", calli, sizeof(calli), 0x401000, &regs,
	             guard);
	/* a stack pointer inside it: ret faults */
	regs.r[ISA_REG_RSP] = guard + 16;
	expect_fault("ret from the guard page", ret, sizeof(ret), 0x401000, &regs, guard + 16);
	/* a function pointer in it */
	regs.r[ISA_REG_RSP] = (uintptr_t)m + 64;
	regs.r[ISA_REG_RAX] = guard + 32;
	expect_fault("call *8(%rax) through the guard page", callr, sizeof(callr), 0x401000, &regs,
	             guard + 40);
	expect_fault("jmp *0(%rip) through the guard page", jmprip, sizeof(jmprip), guard - 6,
	             &regs, guard);
	/* a RIP-relative load from it */
	expect_fault("mov 0(%rip),%rax from the guard page", movrip, sizeof(movrip), guard - 7,
	             &regs, guard);
	expect_fault("mov 0(%rip),%eax from the guard page", movrip32, sizeof(movrip32), guard - 6,
	             &regs, guard);

	/* Branches to non-canonical addresses fault at the target. */
	regs.r[ISA_REG_RSP] = (uintptr_t)m + 64;
	memcpy(m + 64, &(uint64_t){0xa5a5000000001000ull}, 8);
	expect_fault("ret to a non-canonical address", ret, sizeof(ret), 0x401000, &regs,
	             (uintptr_t)0xa5a5000000001000ull);
	regs.r[ISA_REG_RAX] = 0x8000000000000000ull;
	expect_fault("call *%rax to a non-canonical address", calli, sizeof(calli), 0x401000, &regs,
	             (uintptr_t)0x8000000000000000ull);

	/* An op prepare never produced is a fault at the site, not a jump. */
	memset(&zero, 0, sizeof(zero));
	CHECK(isa_probe_step(&zero, 0x401000, 0x1000, &regs, &save, &fa) == ISA_STEP_FAULT &&
	          fa == 0x401000,
	      "zeroed isa_probe_insn_t");
	munmap(m, 2 * E.pg);
}

static void
setup(void)
{
	struct sigaction sa;
	stack_t alt;
	uint8_t *m;

	E.pg = (size_t)sysconf(_SC_PAGESIZE);
	m = mmap(NULL, 3 * E.pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	         -1, 0);
	E.stack =
	    mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || E.stack == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	E.code = m;
	E.st = (state_t *)(m + E.pg);
	E.data = m + E.pg + 0x800; /* 16-byte aligned, for cmpxchg16b */
	E.tramp = m + 2 * E.pg;
	E.rsp0 = (uint64_t)(uintptr_t)(E.stack + STACK_SIZE / 2);

	alt.ss_sp = malloc(SIGSTKSZ * 4);
	alt.ss_size = SIGSTKSZ * 4;
	alt.ss_flags = 0;
	if (alt.ss_sp == NULL || sigaltstack(&alt, NULL) != 0) {
		perror("sigaltstack");
		exit(2);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
}

int
main(void)
{
	setup();
	test_table();
	test_jcc();
	test_faults();
	return isa_test_exit("isa_step_x86_64");
}
