/*
 * tests/isa/decode_x86_64.c: the x86_64 decoder half of instruction probes
 * against hand-picked byte tables.
 *
 * For each instruction: its length, ISA_INSN_* flags and direct target
 * (isa_insn_decode), and how isa_probe_prepare() carries it out (the op,
 * the trampoline length and closing breakpoint, refusals), then the bytes
 * isa_probe_tramp() writes.  For small hand-assembled functions: the
 * boundaries and return sites of isa_func_sites(), including tail calls,
 * jumps that stay inside, the jump-table rule, padding, and functions that
 * do not decode to their end.
 */
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "insn_ops.h"
#include "isa_test.h"

#define PC 0x400000u
#define NONE 0xff /* prepare refuses */

typedef struct row {
	const char *name;
	uint8_t b[16];
	uint8_t n;      /* bytes given (may exceed the instruction) */
	uint8_t len;    /* expected length, 0 if decode must fail */
	uint8_t flags;  /* expected ISA_INSN_* */
	int64_t target; /* expected target - PC when a direct branch */
	uint8_t op;     /* expected X86_OP_*, NONE if refused */
} row_t;

#define RET ISA_INSN_RET
#define JMP ISA_INSN_JUMP
#define JCC ISA_INSN_COND
#define CALL ISA_INSN_CALL
#define IND ISA_INSN_INDIRECT
#define REL ISA_INSN_PCREL
#define TRAP ISA_INSN_TRAP

/* One row per line reads better than clang-format's layout. */
/* clang-format off */
static const row_t rows[] = {
	/* emulated: no-ops and prologue/epilogue */
	{"nop", {0x90}, 1, 1, 0, 0, X86_OP_NEXT},
	{"nopw 0(%rax,%rax)", {0x66, 0x0f, 0x1f, 0x44, 0, 0}, 6, 6, 0, 0, X86_OP_NEXT},
	{"nopl 0(%rip): no access, still a nop", {0x0f, 0x1f, 0x05, 1, 2, 3, 4}, 7, 7, REL, 0, X86_OP_NEXT},
	{"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, 4, 4, 0, 0, X86_OP_NEXT},
	{"push %rbp", {0x55}, 1, 1, 0, 0, X86_OP_PUSH_REG},
	{"push %r12", {0x41, 0x54}, 2, 2, 0, 0, X86_OP_PUSH_REG},
	{"push %rsp", {0x54}, 1, 1, 0, 0, X86_OP_PUSH_REG},
	{"mov %rsp,%rbp", {0x48, 0x89, 0xe5}, 3, 3, 0, 0, X86_OP_MOV_REG},
	{"mov %rsp,%rbp (8b form)", {0x48, 0x8b, 0xec}, 3, 3, 0, 0, X86_OP_MOV_REG},
	{"sub $0x18,%rsp", {0x48, 0x83, 0xec, 0x18}, 4, 4, 0, 0, X86_OP_ADDSUB_IMM},
	{"sub $0x1000,%rsp", {0x48, 0x81, 0xec, 0, 0x10, 0, 0}, 7, 7, 0, 0, X86_OP_ADDSUB_IMM},
	{"add $0x18,%rsp", {0x48, 0x83, 0xc4, 0x18}, 4, 4, 0, 0, X86_OP_ADDSUB_IMM},
	{"ret", {0xc3}, 1, 1, RET, 0, X86_OP_RET},
	{"rep ret", {0xf3, 0xc3}, 2, 2, RET, 0, X86_OP_RET},
	{"ret $0x10", {0xc2, 0x10, 0x00}, 3, 3, RET, 0, X86_OP_RET},
	{"rep ret $8", {0xf3, 0xc2, 0x08, 0x00}, 4, 4, RET, 0, X86_OP_RET},
	/* emulated: branches */
	{"jmp rel8 back", {0xeb, 0xfe}, 2, 2, JMP, 0, X86_OP_JMP},
	{"jmp rel32", {0xe9, 0x00, 0x01, 0, 0}, 5, 5, JMP, 5 + 0x100, X86_OP_JMP},
	{"jmp rel32 negative", {0xe9, 0xfb, 0xff, 0xff, 0xff}, 5, 5, JMP, 0, X86_OP_JMP},
	{"call rel32", {0xe8, 0x10, 0, 0, 0}, 5, 5, CALL, 5 + 0x10, X86_OP_CALL},
	{"je rel8", {0x74, 0x10}, 2, 2, JCC, 2 + 0x10, X86_OP_JCC},
	{"jg rel32", {0x0f, 0x8f, 0x00, 0x02, 0, 0}, 6, 6, JCC, 6 + 0x200, X86_OP_JCC},
	{"jo rel8 back", {0x70, 0xf0}, 2, 2, JCC, 2 - 0x10, X86_OP_JCC},
	{"loop", {0xe2, 0x04}, 2, 2, JCC, 6, X86_OP_LOOP},
	{"jrcxz", {0xe3, 0x04}, 2, 2, JCC, 6, X86_OP_LOOP},
	{"jmp *%rax", {0xff, 0xe0}, 2, 2, JMP | IND, 0, X86_OP_JMP_IND},
	{"notrack jmp *%rax", {0x3e, 0xff, 0xe0}, 3, 3, JMP | IND, 0, X86_OP_JMP_IND},
	{"jmp *%r11", {0x41, 0xff, 0xe3}, 3, 3, JMP | IND, 0, X86_OP_JMP_IND},
	{"call *%rax", {0xff, 0xd0}, 2, 2, CALL | IND, 0, X86_OP_CALL_IND},
	{"call *8(%rax)", {0xff, 0x50, 0x08}, 3, 3, CALL | IND, 0, X86_OP_CALL_IND},
	{"jmp *(%rax,%rcx,8)", {0xff, 0x24, 0xc8}, 3, 3, JMP | IND, 0, X86_OP_JMP_IND},
	{"jmp *0x10(%rip)", {0xff, 0x25, 0x10, 0, 0, 0}, 6, 6, JMP | IND | REL, 0, X86_OP_JMP_IND},
	{"call *0x10(%rip)", {0xff, 0x15, 0x10, 0, 0, 0}, 6, 6, CALL | IND | REL, 0, X86_OP_CALL_IND},
	/* out of line, copied as is */
	{"pop %rbx", {0x5b}, 1, 1, 0, 0, X86_OP_OOL},
	{"leave", {0xc9}, 1, 1, 0, 0, X86_OP_OOL},
	{"xor %eax,%eax", {0x31, 0xc0}, 2, 2, 0, 0, X86_OP_OOL},
	{"mov %edi,%eax (32-bit)", {0x89, 0xf8}, 2, 2, 0, 0, X86_OP_OOL},
	{"push $5", {0x6a, 0x05}, 2, 2, 0, 0, X86_OP_OOL},
	{"lea 8(%rsp),%rax", {0x48, 0x8d, 0x44, 0x24, 0x08}, 5, 5, 0, 0, X86_OP_OOL},
	{"mov (%rsp),%rax", {0x48, 0x8b, 0x04, 0x24}, 4, 4, 0, 0, X86_OP_OOL},
	{"syscall", {0x0f, 0x05}, 2, 2, TRAP, 0, X86_OP_OOL},
	{"int $0x80", {0xcd, 0x80}, 2, 2, TRAP, 0, X86_OP_OOL},
	{"jmp *%fs:0x10 (no segment base)", {0x64, 0xff, 0x24, 0x25, 0x10, 0, 0, 0}, 8, 8, JMP | IND,
	 0, X86_OP_OOL},
	{"lock cmpxchg %rcx,(%rdx)", {0xf0, 0x48, 0x0f, 0xb1, 0x0a}, 5, 5, 0, 0, X86_OP_OOL},
	/* emulated: RIP-relative loads into 64- and 32-bit registers, and lea */
	{"mov 0x10(%rip),%rax", {0x48, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0, X86_OP_LOAD_RIP},
	{"mov 0x10(%rip),%r8", {0x4c, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0, X86_OP_LOAD_RIP},
	{"mov 0x10(%rip),%rax, REX.B set", {0x49, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0,
	 X86_OP_LOAD_RIP},
	{"mov 0x10(%rip),%r11d", {0x44, 0x8b, 0x1d, 0x10, 0, 0, 0}, 7, 7, REL, 0, X86_OP_LOAD_RIP},
	{"lea 0x10(%rip),%rdi", {0x48, 0x8d, 0x3d, 0x10, 0, 0, 0}, 7, 7, REL, 0, X86_OP_SET_REG},
	{"lea 0x10(%rip),%edi", {0x8d, 0x3d, 0x10, 0, 0, 0}, 6, 6, REL, 0, X86_OP_SET_REG},
	/* out of line with a scratch register for the RIP-relative operand */
	{"mov %rax,0x10(%rip)", {0x48, 0x89, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0, X86_OP_OOL_RIP},
	{"cmpq $1,0x10(%rip)", {0x48, 0x83, 0x3d, 0x10, 0, 0, 0, 1}, 8, 8, REL, 0, X86_OP_OOL_RIP},
	{"mov 0x10(%rip),%ax (keeps the upper bits)", {0x66, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0,
	 X86_OP_OOL_RIP},
	{"mov 0x10(%rip),%al", {0x8a, 0x05, 0x10, 0, 0, 0}, 6, 6, REL, 0, X86_OP_OOL_RIP},
	{"mov %fs:0x10(%rip),%rax", {0x64, 0x48, 0x8b, 0x05, 0x10, 0, 0, 0}, 8, 8, REL, 0,
	 X86_OP_OOL_RIP},
	{"push 0x10(%rip)", {0xff, 0x35, 0x10, 0, 0, 0}, 6, 6, REL, 0, X86_OP_OOL_RIP},
	{"vmovdqu 0x10(%rip),%xmm0 (VEX2)", {0xc5, 0xfa, 0x6f, 0x05, 0x10, 0, 0, 0}, 8, 8, REL, 0,
	 X86_OP_OOL_RIP},
	{"vpbroadcastq 0x10(%rip),%xmm0 (VEX3)", {0xc4, 0xe2, 0x79, 0x59, 0x05, 0x10, 0, 0, 0}, 9, 9,
	 REL, 0, X86_OP_OOL_RIP},
	{"vmovdqu64 0x10(%rip),%zmm0 (EVEX)", {0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x05, 0x10, 0, 0, 0},
	 10, 10, REL, 0, X86_OP_OOL_RIP},
	{"cmpxchg16b 0x10(%rip)", {0x48, 0x0f, 0xc7, 0x0d, 0x10, 0, 0, 0}, 8, 8, REL, 0,
	 X86_OP_OOL_RIP},
	/* refused */
	{"int3", {0xcc}, 1, 1, TRAP, 0, NONE},
	{"int $3", {0xcd, 0x03}, 2, 2, TRAP, 0, NONE},
	{"ud2", {0x0f, 0x0b}, 2, 2, TRAP, 0, NONE},
	{"hlt", {0xf4}, 1, 1, TRAP, 0, NONE},
	{"lret", {0xcb}, 1, 1, JMP | IND, 0, NONE},
	{"ljmp *(%rax)", {0xff, 0x28}, 2, 2, JMP | IND, 0, NONE},
	{"xbegin", {0xc7, 0xf8, 0x10, 0, 0, 0}, 6, 6, JCC, 6 + 0x10, NONE},
	/* 66 e9: Intel ignores the prefix (rel32), AMD takes rel16 */
	{"jmp with operand-size prefix", {0x66, 0xe9, 0x10, 0, 0, 0}, 6, 6, JMP, 6 + 0x10, NONE},
	{"jne with operand-size prefix", {0x66, 0x0f, 0x85, 0x10, 0, 0, 0}, 7, 7, JCC, 7 + 0x10,
	 NONE},
	{"call with operand-size prefix", {0x66, 0xe8, 0x10, 0, 0, 0}, 6, 6, CALL, 6 + 0x10, NONE},
	{"jecxz (32-bit address size)", {0x67, 0xe3, 0x04}, 3, 3, JCC, 3 + 4, NONE},
	{"mov 0x10(%eip),%eax", {0x67, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, 7, REL, 0, NONE},
	{"jmp *%fs:0x10(%rip)", {0x64, 0xff, 0x25, 0x10, 0, 0, 0}, 7, 7, JMP | IND | REL, 0, NONE},
	/* not instructions */
	{"push %es (invalid in 64-bit mode)", {0x06}, 1, 0, 0, 0, NONE},
	{"call cut short", {0xe8, 0x10, 0x00}, 3, 0, 0, 0, NONE},
	{"16 prefixes", {0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
			  0x66, 0x66, 0x66, 0x90},
	 16, 0, 0, 0, NONE},
};
/* clang-format on */

static void
check_tramp(const row_t *r, const isa_probe_insn_t *pi)
{
	uint8_t buf[64];
	size_t n;
	uint64_t back;

	memset(buf, 0xaa, sizeof(buf));
	n = isa_probe_tramp(pi, PC, 0x7000000, buf, sizeof(buf));
	CHECK(n == pi->pi_tramp_len, "%s: tramp wrote %zu, pi_tramp_len %u", r->name, n,
	      pi->pi_tramp_len);
	CHECK(isa_probe_tramp(pi, PC, 0x7000000, buf,
	                      pi->pi_tramp_len ? pi->pi_tramp_len - 1u : 0) == 0,
	      "%s: tramp into a short buffer", r->name);
	switch (pi->pi_op) {
	case X86_OP_OOL:
		CHECK(pi->pi_tramp_len == r->len + 14 && pi->pi_tramp_bp == 0, "%s", r->name);
		CHECK(memcmp(buf, r->b, r->len) == 0, "%s: copy differs", r->name);
		CHECK(buf[r->len] == 0xff && buf[r->len + 1] == 0x25 && buf[r->len + 2] == 0 &&
		          buf[r->len + 3] == 0 && buf[r->len + 4] == 0 && buf[r->len + 5] == 0,
		      "%s: no jmp *0(%%rip)", r->name);
		memcpy(&back, buf + r->len + 6, 8);
		CHECK(back == PC + r->len, "%s: jumps back to %#" PRIx64, r->name, back);
		break;
	case X86_OP_OOL_RIP: {
		isa_insn_t ii;
		size_t i, ndiff;

		CHECK(pi->pi_tramp_len == r->len + 1 && pi->pi_tramp_bp == r->len + 1,
		      "%s: tramp %u bp %u", r->name, pi->pi_tramp_len, pi->pi_tramp_bp);
		CHECK(buf[pi->pi_tramp_bp - 1] == 0xcc, "%s: no closing int3", r->name);
		/* The copy is the same instruction without RIP-relative
		 * addressing: same length, disp32 at the same place. */
		CHECK(isa_insn_decode(buf, r->len, 0x7000000, &ii) == 0 && ii.ii_len == r->len &&
		          !(ii.ii_flags & ISA_INSN_PCREL),
		      "%s: rewritten copy is not RIP-free", r->name);
		for (i = 0, ndiff = 0; i < r->len; i++)
			ndiff += buf[i] != r->b[i];
		CHECK(ndiff >= 1 && ndiff <= 2, "%s: %zu bytes rewritten", r->name, ndiff);
		CHECK(pi->pi_data[0] <= ISA_REG_RAX, "%s: scratch %" PRIu64, r->name,
		      pi->pi_data[0]);
		break;
	}
	default:
		CHECK(n == 0 && pi->pi_tramp_len == 0 && pi->pi_tramp_bp == 0,
		      "%s: emulated but has a trampoline", r->name);
		break;
	}
}

static void
test_rows(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row_t *r = &rows[i];
		isa_insn_t ii;
		isa_probe_insn_t pi;
		int rc;

		memset(&ii, 0x5a, sizeof(ii));
		rc = isa_insn_decode(r->b, r->n, PC, &ii);
		if (r->len == 0) {
			CHECK(rc == -1, "%s: decoded (len %u)", r->name, ii.ii_len);
			CHECK(isa_probe_prepare(r->b, r->n, PC, &pi) == -1, "%s: prepared",
			      r->name);
			continue;
		}
		CHECK(rc == 0, "%s: does not decode", r->name);
		if (rc != 0)
			continue;
		CHECK(ii.ii_len == r->len, "%s: len %u, want %u", r->name, ii.ii_len, r->len);
		CHECK(ii.ii_flags == r->flags, "%s: flags %#x, want %#x", r->name, ii.ii_flags,
		      r->flags);
		if ((r->flags & (JMP | JCC | CALL)) && !(r->flags & IND))
			CHECK(ii.ii_target == PC + (uint64_t)r->target,
			      "%s: target %#" PRIx64 ", want %#" PRIx64, r->name, ii.ii_target,
			      PC + (uint64_t)r->target);
		else
			CHECK(ii.ii_target == 0, "%s: target %#" PRIx64 " on a non-direct branch",
			      r->name, ii.ii_target);

		rc = isa_probe_prepare(r->b, r->n, PC, &pi);
		if (r->op == NONE) {
			CHECK(rc == -1, "%s: prepared as op %u", r->name, pi.pi_op);
			continue;
		}
		CHECK(rc == 0, "%s: refused", r->name);
		if (rc != 0)
			continue;
		CHECK(pi.pi_op == r->op, "%s: op %u, want %u", r->name, pi.pi_op, r->op);
		CHECK(pi.pi_len == r->len && memcmp(pi.pi_orig, r->b, r->len) == 0,
		      "%s: original not kept", r->name);
		check_tramp(r, &pi);
	}
}

/* Operands the stepper relies on, for a few representative rows. */
static void
test_operands(void)
{
	static const uint8_t sub[] = {0x48, 0x83, 0xec, 0x18};
	static const uint8_t add_neg[] = {0x48, 0x83, 0xc4, 0xf8};
	static const uint8_t push_r12[] = {0x41, 0x54};
	static const uint8_t ret16[] = {0xc2, 0x10, 0x00};
	static const uint8_t jg[] = {0x0f, 0x8f, 0x00, 0x02, 0, 0};
	static const uint8_t jmp_rip[] = {0xff, 0x25, 0x10, 0, 0, 0};
	static const uint8_t jmp_tab[] = {0xff, 0x24, 0xc8};
	static const uint8_t mov_rax[] = {0x48, 0x8b, 0x05, 0x10, 0, 0, 0};
	static const uint8_t mov_r11d[] = {0x44, 0x8b, 0x1d, 0x10, 0, 0, 0};
	static const uint8_t lea_rdi[] = {0x48, 0x8d, 0x3d, 0xf0, 0xff, 0xff, 0xff};
	static const uint8_t lea_edi[] = {0x8d, 0x3d, 0x10, 0, 0, 0};
	static const uint8_t add_rax[] = {0x48, 0x01, 0x05, 0x10, 0, 0, 0};
	static const uint8_t shl_cl[] = {0x48, 0xd3, 0x25, 0x10, 0, 0, 0};
	static const uint8_t c16b[] = {0x48, 0x0f, 0xc7, 0x0d, 0x10, 0, 0, 0};
	isa_probe_insn_t pi;

	CHECK(isa_probe_prepare(sub, sizeof(sub), PC, &pi) == 0 && pi.pi_data[0] == ISA_REG_RSP &&
	          pi.pi_data[1] == 0x18 && pi.pi_data[2] == 1,
	      "sub $0x18,%%rsp operands");
	CHECK(isa_probe_prepare(add_neg, sizeof(add_neg), PC, &pi) == 0 &&
	          pi.pi_data[1] == (uint64_t)-8 && pi.pi_data[2] == 0,
	      "add $-8,%%rsp: immediate sign-extended");
	CHECK(isa_probe_prepare(push_r12, sizeof(push_r12), PC, &pi) == 0 &&
	          pi.pi_data[0] == ISA_REG_R12,
	      "push %%r12 register");
	CHECK(isa_probe_prepare(ret16, sizeof(ret16), PC, &pi) == 0 && pi.pi_data[0] == 0x10,
	      "ret $0x10 pops 0x10 more");
	CHECK(isa_probe_prepare(jg, sizeof(jg), PC, &pi) == 0 && pi.pi_data[0] == PC + 6 + 0x200 &&
	          pi.pi_data[1] == 0xf,
	      "jg: target and condition 0xf");
	CHECK(isa_probe_prepare(jmp_rip, sizeof(jmp_rip), PC, &pi) == 0 &&
	          pi.pi_data[X86_IND_DISP] == PC + 6 + 0x10 &&
	          pi.pi_data[X86_IND_BASE] == X86_NOREG &&
	          pi.pi_data[X86_IND_MODE] == (X86_IND_MEM | 1),
	      "jmp *0x10(%%rip): absolute operand address");
	CHECK(isa_probe_prepare(jmp_tab, sizeof(jmp_tab), PC, &pi) == 0 &&
	          pi.pi_data[X86_IND_BASE] == ISA_REG_RAX &&
	          pi.pi_data[X86_IND_INDEX] == ISA_REG_RCX &&
	          pi.pi_data[X86_IND_MODE] == (X86_IND_MEM | 8),
	      "jmp *(%%rax,%%rcx,8) operands");
	CHECK(isa_probe_prepare(mov_rax, sizeof(mov_rax), PC, &pi) == 0 &&
	          pi.pi_data[0] == ISA_REG_RAX && pi.pi_data[1] == PC + 7 + 0x10 &&
	          pi.pi_data[2] == 8,
	      "mov 0x10(%%rip),%%rax: register, absolute address, 8 bytes");
	CHECK(isa_probe_prepare(mov_r11d, sizeof(mov_r11d), PC, &pi) == 0 &&
	          pi.pi_data[0] == ISA_REG_R11 && pi.pi_data[1] == PC + 7 + 0x10 &&
	          pi.pi_data[2] == 4,
	      "mov 0x10(%%rip),%%r11d: the 64-bit register, 4 bytes");
	CHECK(isa_probe_prepare(lea_rdi, sizeof(lea_rdi), PC, &pi) == 0 &&
	          pi.pi_data[0] == ISA_REG_RDI && pi.pi_data[1] == PC + 7 - 0x10,
	      "lea -0x10(%%rip),%%rdi: the address");
	CHECK(isa_probe_prepare(lea_edi, sizeof(lea_edi), 0x7f0000400000ull, &pi) == 0 &&
	          pi.pi_data[0] == ISA_REG_RDI && pi.pi_data[1] == 0x400000u + 6 + 0x10,
	      "lea 0x10(%%rip),%%edi above 4 GiB: the address cut to 32 bits");
	/* The scratch register is one the instruction does not name. */
	CHECK(isa_probe_prepare(add_rax, sizeof(add_rax), PC, &pi) == 0 &&
	          pi.pi_data[0] != ISA_REG_RAX,
	      "add %%rax,x(%%rip): scratch is not %%rax");
	CHECK(isa_probe_prepare(shl_cl, sizeof(shl_cl), PC, &pi) == 0 &&
	          pi.pi_data[0] != ISA_REG_RCX,
	      "shl %%cl,x(%%rip): scratch is not %%rcx");
	CHECK(isa_probe_prepare(c16b, sizeof(c16b), PC, &pi) == 0 && pi.pi_data[0] != ISA_REG_RAX &&
	          pi.pi_data[0] != ISA_REG_RBX && pi.pi_data[0] != ISA_REG_RCX &&
	          pi.pi_data[0] != ISA_REG_RDX,
	      "cmpxchg16b x(%%rip): scratch avoids rdx:rax and rcx:rbx (got %" PRIu64 ")",
	      pi.pi_data[0]);
}

/* ---- isa_func_sites on hand-assembled functions ---- */

typedef struct sites {
	int n;
	size_t off[64];
	int kind[64];
	int stop_after; /* return non-zero after this many calls, 0 never */
} sites_t;

static int
collect(size_t off, int kind, void *arg)
{
	sites_t *s = arg;

	if (s->n < 64) {
		s->off[s->n] = off;
		s->kind[s->n] = kind;
	}
	s->n++;
	return s->stop_after != 0 && s->n >= s->stop_after ? 7 : 0;
}

/* Expected: boundaries and return offsets, each list ended by -1. */
static void
check_sites(const char *name, const uint8_t *code, size_t size, const int *insns, const int *rets)
{
	sites_t s = {0};
	int rc, i, ni = 0, nr = 0, last = -1;

	rc = isa_func_sites(code, size, PC, collect, &s);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	for (i = 0; i < s.n && i < 64; i++) {
		CHECK((int)s.off[i] >= last, "%s: offsets out of order", name);
		last = (int)s.off[i];
		if (s.kind[i] == ISA_SITE_INSN) {
			CHECK(insns[ni] == (int)s.off[i], "%s: boundary %zu, want %d", name,
			      s.off[i], insns[ni]);
			if (insns[ni] != -1)
				ni++;
		} else {
			CHECK(s.kind[i] == ISA_SITE_RETURN, "%s: kind %d", name, s.kind[i]);
			CHECK(rets[nr] == (int)s.off[i], "%s: return site %zu, want %d", name,
			      s.off[i], rets[nr]);
			CHECK(i > 0 && s.off[i - 1] == s.off[i] && s.kind[i - 1] == ISA_SITE_INSN,
			      "%s: return site %zu not right after its boundary", name, s.off[i]);
			if (rets[nr] != -1)
				nr++;
		}
	}
	CHECK(insns[ni] == -1, "%s: boundary %d missing", name, insns[ni]);
	CHECK(rets[nr] == -1, "%s: return site %d missing", name, rets[nr]);
}

static void
test_func_sites(void)
{
	/* push %rbp; mov %rsp,%rbp; mov %edi,%eax; pop %rbp; ret; then int3
	 * padding, which decodes like anything else */
	static const uint8_t framed[] = {0x55, 0x48, 0x89, 0xe5, 0x89,
	                                 0xf8, 0x5d, 0xc3, 0xcc, 0xcc};
	static const int framed_i[] = {0, 1, 4, 6, 7, 8, 9, -1}, framed_r[] = {7, -1};

	/* 0: test %edi,%edi          2: je +8 (inside, to 12)
	 * 4: jne rel32 out (tail)    10: jmp -12 (inside, back to 0)
	 * 12: jmp rel32 out (tail)   17: ret $8   20: rep ret
	 * 22: jmp rel8 to 24 = end (outside: the end is not inside)
	 * 24 bytes */
	static const uint8_t branchy[] = {0x85, 0xff, 0x74, 0x08, 0x0f, 0x85, 0x00, 0x10,
	                                  0x00, 0x00, 0xeb, 0xf4, 0xe9, 0xef, 0xbe, 0xad,
	                                  0x0d, 0xc2, 0x08, 0x00, 0xf3, 0xc3, 0xeb, 0x00};
	static const int branchy_i[] = {0, 2, 4, 10, 12, 17, 20, 22, -1};
	static const int branchy_r[] = {4, 12, 17, 20, 22, -1};

	/* A tail jump backwards, before the function's start. */
	static const uint8_t back[] = {0x31, 0xc0, 0xe9, 0xf8, 0xff, 0xff, 0xff};
	static const int back_i[] = {0, 2, -1}, back_r[] = {2, -1};

	/* An indirect jmp: a possible jump table, so only a ret right after
	 * leave or after mov %rbp,%rsp; pop %rbp is a return site, and the
	 * tail jmp is not.
	 * 0: jmp *%rax   2: ret   3: leave   4: ret   5: mov %rbp,%rsp
	 * 8: pop %rbp   9: rep ret   11: jmp rel32 out   16: pop %rbp
	 * 17: ret */
	static const uint8_t table[] = {0xff, 0xe0, 0xc3, 0xc9, 0xc3, 0x48, 0x89, 0xec, 0x5d,
	                                0xf3, 0xc3, 0xe9, 0x00, 0x10, 0x00, 0x00, 0x5d, 0xc3};
	static const int table_i[] = {0, 2, 3, 4, 5, 8, 9, 11, 16, 17, -1};
	static const int table_r[] = {4, 9, -1};

	/* loop, jrcxz and xbegin leaving the function are not tail calls:
	 * only jmp and jcc are (as the pid provider's byte patterns have it).
	 * 0: loop +16   2: jrcxz +16   4: xbegin +0x100   10: ret */
	static const uint8_t loops[] = {0xe2, 0x10, 0xe3, 0x10, 0xc7, 0xf8, 0, 1, 0, 0, 0xc3};
	static const int loops_i[] = {0, 2, 4, 10, -1}, loops_r[] = {10, -1};

	/* Valid instructions, then a byte that is no instruction in 64-bit
	 * mode: -1 and no callback at all. */
	static const uint8_t bad[] = {0x55, 0xc3, 0x06, 0x90, 0xc3};
	/* The last instruction runs past the end. */
	static const uint8_t cut[] = {0x55, 0xc3, 0xe8, 0x00, 0x00};
	sites_t s = {0};
	int rc;

	check_sites("framed", framed, sizeof(framed), framed_i, framed_r);
	check_sites("branchy", branchy, sizeof(branchy), branchy_i, branchy_r);
	check_sites("tail jump before the start", back, sizeof(back), back_i, back_r);
	check_sites("jump table", table, sizeof(table), table_i, table_r);
	check_sites("loop, jrcxz, xbegin out", loops, sizeof(loops), loops_i, loops_r);

	rc = isa_func_sites(bad, sizeof(bad), PC, collect, &s);
	CHECK(rc == -1 && s.n == 0, "invalid byte: rc %d, %d callbacks", rc, s.n);
	s.n = 0;
	rc = isa_func_sites(cut, sizeof(cut), PC, collect, &s);
	CHECK(rc == -1 && s.n == 0, "cut short: rc %d, %d callbacks", rc, s.n);

	/* A callback's non-zero return stops the walk and is returned. */
	memset(&s, 0, sizeof(s));
	s.stop_after = 3;
	rc = isa_func_sites(framed, sizeof(framed), PC, collect, &s);
	CHECK(rc == 7 && s.n == 3, "stop: rc %d after %d callbacks", rc, s.n);

	memset(&s, 0, sizeof(s));
	rc = isa_func_sites(framed, 0, PC, collect, &s);
	CHECK(rc == 0 && s.n == 0, "empty function: rc %d, %d callbacks", rc, s.n);
}

int
main(void)
{
	test_rows();
	test_operands();
	test_func_sites();
	return isa_test_exit("isa_decode_x86_64");
}
