/*
 * tests/isa/step/step_cross.c: on aarch64 and riscv64, probed instructions
 * run as they run natively (the counterpart of step_x86_64.c).
 *
 * Built by the cross compiler with the ISA module (run_step_cross.sh) and
 * run under qemu-user.  Each case of step_<isa>.S is one instruction in a
 * harness that loads every register from st.in and stores every register
 * at the landing it reaches.  Each case runs twice from identical state:
 * once as is, and once with the ISA's breakpoint over the instruction,
 * where a SIGTRAP handler does what a port does (ucontext to isa_regs_t,
 * isa_probe_step, the trampoline from isa_probe_tramp, isa_probe_step_done
 * at the closing breakpoint, and back).  The two runs must agree on every
 * register, the flags, the landing, case_data and the stack around sp.
 * Every case runs under several states: all sixteen NZCV values on
 * aarch64, several (a0, a1) pairs on riscv, so each conditional branch is
 * seen taken and not taken.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "isa.h"
#include "isa_test.h"
#include "step_cross.h"

typedef struct case_rec {
	const char *text;
	void (*entry)(void);
	uint8_t *insn;
	uint64_t land_b;
	uint64_t setup;
	uint64_t lit;
} case_rec_t;

extern const case_rec_t __start_step_cases[], __stop_step_cases[];

#define STACK_SIZE 0x10000
#define WINDOW 0x80

static struct env {
	size_t pg;
	uint8_t *tramp;
	uint8_t *stack;
	uint64_t sp0;
} E;

static struct probe {
	isa_probe_insn_t pi;
	uintptr_t site, tramp;
	uint64_t save;
	int steps, dones, rc;
} P;

#if defined(__aarch64__)
#define NVARIANTS 16
#define SP_SLOT 31
enum { S_NONE, S_X1_LANDB, S_X30_LANDB, S_X3_ZERO, S_X9_BITS, S_X0_DATA, S_X8_GETPID,
       S_X1_DATA_X2_2, S_X3_HIGH };

static void
variant(step_state_t *s, int v)
{
	s->in_flags = (uint64_t)v << 28;
}

static void
setup(step_state_t *s, const case_rec_t *c)
{
	switch (c->setup) {
	case S_X1_LANDB:
		s->in[1] = c->land_b;
		break;
	case S_X30_LANDB:
		s->in[30] = c->land_b;
		break;
	case S_X3_ZERO:
		s->in[3] = 0;
		break;
	case S_X9_BITS:
		s->in[9] = 0x8000000000000008ull;
		break;
	case S_X0_DATA:
		s->in[0] = (uintptr_t)case_data + 64;
		break;
	case S_X8_GETPID:
		s->in[8] = 172;
		break;
	case S_X1_DATA_X2_2:
		s->in[1] = (uintptr_t)case_data;
		s->in[2] = 2;
		break;
	case S_X3_HIGH:
		s->in[3] = 0xffffffff00000000ull;
		break;
	default:
		break;
	}
}

static bool
compared(int r)
{
	return r < 32;
}

static void
uc_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	int i;

	for (i = 0; i < 31; i++)
		regs->r[i] = uc->uc_mcontext.regs[i];
	regs->r[ISA_REG_SP] = uc->uc_mcontext.sp;
	regs->r[ISA_REG_PC] = uc->uc_mcontext.pc;
	regs->r[ISA_REG_PSTATE] = uc->uc_mcontext.pstate;
}

static void
regs_to_uc(const isa_regs_t *regs, ucontext_t *uc)
{
	int i;

	for (i = 0; i < 31; i++)
		uc->uc_mcontext.regs[i] = regs->r[i];
	uc->uc_mcontext.sp = regs->r[ISA_REG_SP];
	uc->uc_mcontext.pc = regs->r[ISA_REG_PC];
	uc->uc_mcontext.pstate = regs->r[ISA_REG_PSTATE];
}

static uintptr_t
uc_pc(const ucontext_t *uc)
{
	return uc->uc_mcontext.pc;
}
#elif defined(__riscv) && __riscv_xlen == 64
#define NVARIANTS 4
#define SP_SLOT 2
enum { S_NONE, S_A3_LANDB, S_RA_LANDB, S_T0_LANDB, S_A5_DATA, S_A2_DATA, S_A7_GETPID };

static void
variant(step_state_t *s, int v)
{
	static const uint64_t a[NVARIANTS][2] = {
	    {5, 5}, {(uint64_t)-1, 1}, {1, (uint64_t)-1}, {0, 0x100000000ull}};

	s->in[10] = a[v][0];
	s->in[11] = a[v][1];
}

static void
setup(step_state_t *s, const case_rec_t *c)
{
	switch (c->setup) {
	case S_A3_LANDB:
		s->in[13] = c->land_b;
		break;
	case S_RA_LANDB:
		s->in[1] = c->land_b;
		break;
	case S_T0_LANDB:
		s->in[5] = c->land_b;
		break;
	case S_A5_DATA:
		s->in[15] = (uintptr_t)case_data + 32;
		break;
	case S_A2_DATA:
		s->in[12] = (uintptr_t)case_data + 64;
		break;
	case S_A7_GETPID:
		s->in[17] = 172;
		break;
	default:
		break;
	}
}

/* x0 is zero, gp and tp belong to the C runtime: not loaded, not stored */
static bool
compared(int r)
{
	return r != 0 && r != 3 && r != 4 && r < 32;
}

static void
uc_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	int i;

	regs->r[0] = 0;
	for (i = 1; i < 32; i++)
		regs->r[i] = uc->uc_mcontext.__gregs[i];
	regs->r[ISA_REG_PC] = uc->uc_mcontext.__gregs[0];
}

static void
regs_to_uc(const isa_regs_t *regs, ucontext_t *uc)
{
	int i;

	for (i = 1; i < 32; i++)
		uc->uc_mcontext.__gregs[i] = regs->r[i];
	uc->uc_mcontext.__gregs[0] = regs->r[ISA_REG_PC];
}

static uintptr_t
uc_pc(const ucontext_t *uc)
{
	return uc->uc_mcontext.__gregs[0];
}
#else
#error "step_cross.c runs on aarch64 or riscv64"
#endif

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
	uintptr_t at = isa_breakpoint_site(uc_pc(uc)), fault = 0;
	isa_regs_t regs;

	(void)sig;
	(void)si;
	uc_to_regs(uc, &regs);
	if (at == P.site) {
		P.steps++;
		P.rc = isa_probe_step(&P.pi, P.site, P.tramp, &regs, &P.save, &fault);
		if (P.rc == ISA_STEP_FAULT)
			die("step_cross: unexpected ISA_STEP_FAULT\n");
	} else if (P.pi.pi_tramp_bp != 0 && at == P.tramp + P.pi.pi_tramp_bp - 1) {
		P.dones++;
		isa_probe_step_done(&P.pi, P.site, &regs, P.save);
	} else {
		die("step_cross: trap at an unexpected address\n");
	}
	regs_to_uc(&regs, uc);
}

typedef struct outcome {
	step_state_t st;
	uint8_t data[DATA_SIZE];
	uint8_t window[2 * WINDOW];
} outcome_t;

static void
reset(const case_rec_t *c, int v)
{
	uint64_t w;
	size_t i;
	int r;

	memset(&st, 0, sizeof(st));
	for (r = 0; r < 32; r++)
		st.in[r] = 0x1111111111111111ull * (uint64_t)(r + 1) + 0x0102030405060708ull;
	st.in[SP_SLOT] = E.sp0;
	variant(&st, v);
	setup(&st, c);
	for (i = 0; i < DATA_SIZE; i += 8) {
		w = 0x8070605040302010ull ^ (i * 0x0101010101010101ull);
		memcpy(case_data + i, &w, 8);
	}
	for (i = 0; i < 2 * WINDOW; i += 8) {
		w = 0xa5a5000000000000ull | i;
		memcpy((uint8_t *)(uintptr_t)E.sp0 - WINDOW + i, &w, 8);
	}
}

static void
run(const case_rec_t *c, outcome_t *o)
{
	c->entry();
	o->st = st;
	memcpy(o->data, case_data, DATA_SIZE);
	memcpy(o->window, (uint8_t *)(uintptr_t)E.sp0 - WINDOW, sizeof(o->window));
}

static void
compare(const case_rec_t *c, int v, const outcome_t *want, const outcome_t *got)
{
	int r;

	for (r = 0; r < 32; r++)
		if (compared(r))
			CHECK(want->st.out[r] == got->st.out[r],
			      "%s (variant %d): x%d %#" PRIx64 ", natively %#" PRIx64, c->text, v, r,
			      got->st.out[r], want->st.out[r]);
	CHECK((want->st.out_flags & 0xf0000000u) == (got->st.out_flags & 0xf0000000u),
	      "%s (variant %d): flags %#" PRIx64 ", natively %#" PRIx64, c->text, v,
	      got->st.out_flags, want->st.out_flags);
	CHECK(want->st.landing == got->st.landing,
	      "%s (variant %d): landed at %" PRIu64 ", natively %" PRIu64, c->text, v,
	      got->st.landing, want->st.landing);
	CHECK(memcmp(want->data, got->data, DATA_SIZE) == 0, "%s (variant %d): data differs",
	      c->text, v);
	CHECK(memcmp(want->window, got->window, sizeof(want->window)) == 0,
	      "%s (variant %d): stack differs", c->text, v);
}

static int emulated, out_of_line, closing;

static void
run_case(const case_rec_t *c)
{
	outcome_t want, got;
	uint8_t orig[ISA_INSN_MAXLEN], bp[8];
	isa_insn_t in;
	size_t n, bplen;
	int v, taken = 0;

	if (isa_insn_decode(c->insn, 4, (uintptr_t)c->insn, &in) != 0) {
		CHECK(0, "%s: not decoded", c->text);
		return;
	}
	if (isa_probe_prepare(c->insn, in.ii_len, (uintptr_t)c->insn, &P.pi) != 0) {
		CHECK(0, "%s: refused", c->text);
		return;
	}
	P.site = (uintptr_t)c->insn;
	P.tramp = (uintptr_t)E.tramp;
	memset(E.tramp, 0, E.pg);
	n = isa_probe_tramp(&P.pi, P.site, P.tramp, E.tramp, E.pg);
	CHECK(n == P.pi.pi_tramp_len, "%s: trampoline %zu bytes", c->text, n);
	__builtin___clear_cache((char *)E.tramp, (char *)E.tramp + E.pg);
	emulated += n == 0;
	out_of_line += n != 0;
	closing += P.pi.pi_tramp_bp != 0;
	bplen = isa_breakpoint_insn(in.ii_len, bp, sizeof(bp));
	CHECK(bplen == in.ii_len, "%s: breakpoint of %zu bytes", c->text, bplen);
	memcpy(orig, c->insn, in.ii_len);

	for (v = 0; v < NVARIANTS; v++) {
		reset(c, v);
		run(c, &want);
		taken += want.st.landing == 2;

		reset(c, v);
		memcpy(c->insn, bp, bplen);
		__builtin___clear_cache((char *)c->insn, (char *)c->insn + bplen);
		P.steps = P.dones = 0;
		P.rc = -1;
		run(c, &got);
		memcpy(c->insn, orig, in.ii_len);
		__builtin___clear_cache((char *)c->insn, (char *)c->insn + in.ii_len);

		CHECK(P.steps == 1, "%s: stepped %d times", c->text, P.steps);
		CHECK(P.rc == (n != 0 ? ISA_STEP_TRAMP : ISA_STEP_DONE), "%s: step returned %d",
		      c->text, P.rc);
		CHECK(P.dones == (P.pi.pi_tramp_bp != 0), "%s: %d closing breakpoints", c->text,
		      P.dones);
		compare(c, v, &want, &got);
	}
	if (getenv("ISA_STEP_VERBOSE") != NULL)
		printf("%-36s %s, taken %d/%d\n", c->text,
		       n == 0 ? "emulated" : P.pi.pi_tramp_bp ? "out of line + brk" : "out of line",
		       taken, NVARIANTS);
}

int
main(void)
{
	const case_rec_t *c;
	char name[32];
	struct sigaction sa;
	uintptr_t lo, hi;
	stack_t alt;

	E.pg = (size_t)sysconf(_SC_PAGESIZE);
	E.tramp = mmap(NULL, E.pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	E.stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (E.tramp == MAP_FAILED || E.stack == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	E.sp0 = (uintptr_t)(E.stack + STACK_SIZE / 2);

	/* the cases' text becomes writable, to place the breakpoints */
	lo = (uintptr_t)step_cases_text & ~(uintptr_t)(E.pg - 1);
	hi = (uintptr_t)step_cases_end;
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		perror("mprotect");
		return 2;
	}

	alt.ss_sp = malloc(SIGSTKSZ * 4);
	alt.ss_size = SIGSTKSZ * 4;
	alt.ss_flags = 0;
	if (alt.ss_sp == NULL || sigaltstack(&alt, NULL) != 0) {
		perror("sigaltstack");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);

	for (c = __start_step_cases; c < __stop_step_cases; c++)
		run_case(c);
	printf("%d cases: %d emulated, %d out of line (%d with a closing breakpoint)\n",
	       (int)(__stop_step_cases - __start_step_cases), emulated, out_of_line, closing);
	CHECK(emulated > 0 && out_of_line > 0, "every kind of case ran");
	snprintf(name, sizeof(name), "isa_step_%s", isa_name);
	return isa_test_exit(name);
}
