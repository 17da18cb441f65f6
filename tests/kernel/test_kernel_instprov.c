/*
 * tests/kernel/test_kernel_instprov.c: fbt and kinst (kernel/instprov.h)
 * on the deterministic test port, over functions compiled with a kernel's
 * module flags for one ISA (instprov_sample.c, linked at a kernel address).
 *
 * The sample's .text is copied into a buffer that stands for kernel text
 * ("kernel", one test-port module with the sample's symbols) and the real
 * providers run over it, built for the ISA under test (this file is built
 * once per ISA: the x86_64 build runs on this machine's registers, the
 * aarch64 and riscv builds stop short of running foreign instructions).
 *   - fbt:kernel::entry and fbt:kernel::return enabled through the core
 *     (a DOF enabling) put breakpoints exactly on each eligible function's
 *     first instruction and on the return sites worked out here from the
 *     disassembler's text (objdump of the linked sample): returns, tail
 *     calls out of the function, and on x86_64 fbt's rule for functions
 *     with a jump table; nothing in the hand-written function without a
 *     frame nor in a dtrace_* function;
 *   - in illumos's protocol (MODE kernel: the kernel emulates push %rbp,
 *     leave, nop and ret), entry only on a push %rbp and returns only on
 *     the one-byte rets;
 *   - x86_64: each breakpoint trapped through instprov_trap() on a register
 *     and stack image steps the instruction as the processor would (the
 *     entry's push %rbp, ret, tail-call jmp) and the probe's record holds
 *     DTrace's arguments (entry: the argument registers; return: the site's
 *     offset and %rax); kinst probes on every instruction of a function,
 *     trapped through instprov_breakpoint() (a port's whole route, the
 *     trap-registers slot restored after),
 *     named by decimal offset, their trampolines the copy and a jump back,
 *     a %rip-relative copy addressing the same byte from its trampoline;
 *   - a module with an enabled probe refuses to unload; disabling puts back
 *     every byte; unloading destroys the module's probes; instprov_fini()
 *     leaves the text as it found it and the core leaks nothing;
 *   - pins (a kernel that tells of no unload, NetBSD 7.99): over two more
 *     copies of the sample, "modb" and "modc" (whose pin fails), each
 *     module is pinned once before its first probe of either provider and
 *     unpinned once after its last is destroyed, with its text pristine
 *     and its sites forgotten (made again when asked again); a consumer's
 *     open pins nothing; a walk that makes no probe lets its pin go; a
 *     module that cannot be pinned gets no probe and the reason is logged;
 *     instprov_fini() unpins the rest.
 *
 * Usage: test_kernel_instprov engine|kernel SAMPLE.elf OBJDUMP
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core_harness.h"
#include "instprov.h"

#if defined(TEST_ISA_X86_64)
#define EM_TEST EM_X86_64
#elif defined(TEST_ISA_AARCH64)
#define EM_TEST EM_AARCH64
#elif defined(TEST_ISA_RISCV)
#define EM_TEST EM_RISCV
#endif

/* ---- The sample ----------------------------------------------------------- */

#define MAXFUNCS 32
#define MAXINSNS 512

typedef struct insn {
	size_t off;
	char mnem[32];
	char ops[96];
	uint64_t target; /* a direct branch's, or 0 */
} insn_t;

typedef struct func {
	char name[64];
	size_t off, size;
	insn_t insns[MAXINSNS];
	size_t ninsns;
	bool eligible;    /* frame set-up, not excluded */
	bool want[4096];  /* fbt expects a site at this offset */
	bool kinst[4096]; /* kinst expects one */
} func_t;

static func_t funcs[MAXFUNCS];
static size_t nfuncs;
static uint64_t text_vaddr;
static size_t text_size;
/* Kernel text stands here, in the image, near the test port's trampolines
 * (%rip-relative copies must reach their data). */
static uint8_t text[1 << 16] __attribute__((aligned(4096)));
static uint8_t pristine[sizeof(text)];
static testport_symbol_t syms[MAXFUNCS];
static bool kernel_mode;

static func_t *
func_named(const char *name)
{
	for (size_t i = 0; i < nfuncs; i++)
		if (strcmp(funcs[i].name, name) == 0)
			return &funcs[i];
	return NULL;
}

static void
load_elf(const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY);
	uint8_t *img;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *textsh = NULL;
	size_t textidx = 0;

	if (fd < 0 || fstat(fd, &sb) != 0) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(2);
	}
	img = malloc((size_t)sb.st_size);
	if (img == NULL || read(fd, img, (size_t)sb.st_size) != sb.st_size)
		exit(2);
	close(fd);
	eh = (const Elf64_Ehdr *)img;
	CHECK_EQ(eh->e_machine, EM_TEST);
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	{
		const char *shstr = (const char *)img + sh[eh->e_shstrndx].sh_offset;

		for (size_t i = 0; i < eh->e_shnum; i++)
			if (strcmp(shstr + sh[i].sh_name, ".text") == 0)
				textsh = &sh[i], textidx = i;
	}
	if (textsh == NULL || textsh->sh_size > sizeof(text)) {
		fprintf(stderr, "%s: no usable .text\n", path);
		exit(2);
	}
	text_vaddr = textsh->sh_addr;
	text_size = textsh->sh_size;
	memcpy(text, img + textsh->sh_offset, text_size);
	memcpy(pristine, text, text_size);
	for (size_t i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *str;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		for (size_t j = 1; j < sh[i].sh_size / sizeof(*sym); j++) {
			func_t *f;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || sym[j].st_size == 0 ||
			    sym[j].st_shndx != textidx || nfuncs == MAXFUNCS)
				continue;
			f = &funcs[nfuncs];
			snprintf(f->name, sizeof(f->name), "%s", str + sym[j].st_name);
			f->off = sym[j].st_value - text_vaddr;
			f->size = sym[j].st_size;
			syms[nfuncs].ts_name = f->name;
			syms[nfuncs].ts_addr = (uintptr_t)text + f->off;
			syms[nfuncs].ts_size = f->size;
			nfuncs++;
		}
	}
	free(img);
}

/* objdump -d --no-show-raw-insn: "<addr>:\t<mnemonic>\t<operands>". */
static void
load_disassembly(const char *objdump, const char *path)
{
	char cmd[1024], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn %s", objdump, path);
	if ((p = popen(cmd, "r")) == NULL)
		exit(2);
	while (fgets(line, sizeof(line), p) != NULL) {
		char *colon = strchr(line, ':'), *m, *ops, *hex;
		uint64_t addr;
		size_t off;
		func_t *f = NULL;
		insn_t *in;

		if (colon == NULL || colon == line || colon[1] == '\0' ||
		    strspn(line, "0123456789abcdef ") != (size_t)(colon - line) ||
		    strchr(colon + 1, '\t') == NULL)
			continue;
		addr = strtoull(line, NULL, 16);
		if (addr < text_vaddr || addr >= text_vaddr + text_size)
			continue;
		off = addr - text_vaddr;
		for (size_t i = 0; i < nfuncs; i++)
			if (off >= funcs[i].off && off < funcs[i].off + funcs[i].size)
				f = &funcs[i];
		if (f == NULL || f->ninsns == MAXINSNS)
			continue;
		m = colon + 1;
		while (*m == ' ' || *m == '\t')
			m++;
		ops = m + strcspn(m, "\t\n");
		if (*ops == '\t')
			*ops++ = '\0';
		else
			*ops = '\0';
		ops[strcspn(ops, "\n")] = '\0';
		in = &f->insns[f->ninsns++];
		in->off = off - f->off;
		snprintf(in->mnem, sizeof(in->mnem), "%s", m);
		snprintf(in->ops, sizeof(in->ops), "%s", ops);
		/* direct targets print as an address before "<sym+off>" */
		hex = strstr(ops, "0x");
		if (hex != NULL && strchr(ops, '<') != NULL && strchr(ops, '(') == NULL &&
		    strchr(ops, '[') == NULL && strchr(ops, '*') == NULL)
			in->target = strtoull(hex, NULL, 16);
	}
	pclose(p);
}

/* ---- What fbt must patch, from the disassembly ------------------------------ */

static bool
target_outside(const func_t *f, const insn_t *in)
{
	uint64_t lo = text_vaddr + f->off;

	return in->target != 0 && (in->target < lo || in->target >= lo + f->size);
}

static bool
starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

#if defined(TEST_ISA_X86_64)
static bool
is_jcc(const char *m)
{
	return m[0] == 'j' && !starts(m, "jmp") && strcmp(m, "jrcxz") != 0 &&
	       strcmp(m, "jecxz") != 0;
}

/* fbt's jump-table guard (DTrace's amd64 fbt): a pointer-sized window over
 * the ret whose value points into the function. */
static bool
in_table(const func_t *f, size_t off)
{
	uintptr_t lo = (uintptr_t)text + f->off;

	for (size_t j = 0; j < 8 && j <= off; j++) {
		uint64_t v;

		if (off - j + 8 > f->size)
			continue;
		memcpy(&v, text + f->off + off - j, 8);
		if (v >= lo && v < lo + f->size)
			return true;
	}
	return false;
}

static void
expect_sites(func_t *f)
{
	bool table = false;

	for (size_t i = 0; i < f->ninsns; i++)
		if (starts(f->insns[i].mnem, "jmp") && f->insns[i].ops[0] == '*')
			table = true;
	if (kernel_mode && pristine[f->off] != 0x55)
		; /* illumos: no entry probe */
	else
		f->want[0] = true;
	for (size_t i = 0; i < f->ninsns; i++) {
		const insn_t *in = &f->insns[i];
		bool site = false;

		if (starts(in->mnem, "ret")) {
			bool epilogue = (i >= 1 && starts(f->insns[i - 1].mnem, "leave")) ||
			                (i >= 2 && starts(f->insns[i - 1].mnem, "pop") &&
			                 strstr(f->insns[i - 1].ops, "%rbp") != NULL &&
			                 starts(f->insns[i - 2].mnem, "mov") &&
			                 strcmp(f->insns[i - 2].ops, "%rbp, %rsp") == 0);

			site = !table || epilogue || !in_table(f, in->off);
		} else if (!table && (strcmp(in->mnem, "jmp") == 0 || is_jcc(in->mnem))) {
			site = target_outside(f, in);
		}
		/* illumos's kernel can step only the one-byte ret */
		if (site && kernel_mode)
			site = pristine[f->off + in->off] == 0xc3 &&
			       (i + 1 == f->ninsns || f->insns[i + 1].off == in->off + 1);
		if (site)
			f->want[in->off] = true;
	}
}

static bool
frame_setup(const func_t *f)
{
	for (size_t i = 0; i < f->ninsns; i++)
		if (starts(f->insns[i].mnem, "push") && strcmp(f->insns[i].ops, "%rbp") == 0)
			return true;
	return false;
}
#else
static bool
is_branch(const char *m)
{
#if defined(TEST_ISA_AARCH64)
	return strcmp(m, "b") == 0 || starts(m, "b.") || starts(m, "cb") || starts(m, "tb");
#else
	return strcmp(m, "j") == 0 || (m[0] == 'b' && strcmp(m, "bnez") != 0 ? true : false) ||
	       strcmp(m, "bnez") == 0;
#endif
}

static void
expect_sites(func_t *f)
{
	f->want[0] = true;
	for (size_t i = 0; i < f->ninsns; i++) {
		const insn_t *in = &f->insns[i];

		if (starts(in->mnem, "ret") || (is_branch(in->mnem) && target_outside(f, in)))
			f->want[in->off] = true;
	}
}

/* Indirect branches the ISA may take for tail calls (aarch64 br x16/x17,
 * riscv jr after auipc): accepted, not required. */
static bool
maybe_site(const func_t *f, size_t off)
{
	for (size_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].off == off)
			return strcmp(f->insns[i].mnem, "br") == 0 ||
			       strcmp(f->insns[i].mnem, "jr") == 0 ||
			       strcmp(f->insns[i].mnem, "jalr") == 0;
	return false;
}

static bool
frame_setup(const func_t *f)
{
	for (size_t i = 0; i < f->ninsns; i++) {
#if defined(TEST_ISA_AARCH64)
		if (strcmp(f->insns[i].mnem, "stp") == 0 && strstr(f->insns[i].ops, "]!") != NULL)
			return strstr(f->insns[i].ops, "[sp") != NULL;
		if (strcmp(f->insns[i].mnem, "sub") == 0 && starts(f->insns[i].ops, "sp, sp"))
			return true;
#else
		if ((strcmp(f->insns[i].mnem, "sd") == 0 ||
		     strcmp(f->insns[i].mnem, "c.sdsp") == 0) &&
		    starts(f->insns[i].ops, "ra,") && strstr(f->insns[i].ops, "(sp)") != NULL)
			return true;
#endif
	}
	return false;
}
#endif

/* ---- Through the core -------------------------------------------------------- */

static void
ip_lock(bool take)
{
	(void)take;
}

static bool
illumos_accept(uintptr_t addr, const isa_probe_insn_t *pi)
{
	(void)addr;
	return pi->pi_len == 1 && (pi->pi_orig[0] == 0x55 || pi->pi_orig[0] == 0xc9 ||
	                           pi->pi_orig[0] == 0x90 || pi->pi_orig[0] == 0xc3);
}

static int hold_count;

static void
ip_hold(void *port, int delta)
{
	(void)port;
	hold_count += delta;
}

static dtrace_port_module_t kmod;

static void
setup(void)
{
	instprov_conf_t conf;

	CHECK_EQ(nop_start(2), 0);
	memset(&kmod, 0, sizeof(kmod));
	kmod.dpm_name = "kernel";
	kmod.dpm_text = (uintptr_t)text;
	kmod.dpm_textsize = text_size;
	testport_add_module(&kmod, syms, nfuncs);
	memset(&conf, 0, sizeof(conf));
	conf.ic_step = kernel_mode ? INSTPROV_STEP_KERNEL : INSTPROV_STEP_ENGINE;
	conf.ic_accept = illumos_accept;
	conf.ic_stack_gap = (size_t)-1; /* the image's stack has room */
	conf.ic_module_hold = ip_hold;
	conf.ic_lock = ip_lock;
	CHECK_EQ(instprov_init(&conf), 0);
}

/* The port handle the test port gave "kernel", for the unload events. */
static int
find_kmod(const dtrace_port_module_t *mod, void *arg)
{
	*(dtrace_port_module_t *)arg = *mod;
	return 1;
}

/* fbt:kernel::entry and ::return tracing arg0 and arg1; kinst on one
 * function's every instruction. */
static dtrace_state_t *
enable(const char *kinst_func, int *matched)
{
	static const char *const names[] = {"entry", "return"};
	dtrace_state_t *st = NULL;
	dofb_t b;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	if (kinst_func != NULL) {
		/* as libdtrace does while compiling: PROBEMATCH hands the
		 * description to the providers, which make what it names */
		dtrace_probedesc_t pd;

		memset(&pd, 0, sizeof(pd));
		strcpy(pd.dtpd_provider, "kinst");
		strcpy(pd.dtpd_func, kinst_func);
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &pd, NULL), 0);
	}
	dofb_init(&b);
	for (int i = 0; i < 2; i++) {
		uint32_t pd = dofb_probedesc(&b, "fbt", "kernel", "", names[i]);
		dof_actdesc_t a[2] = {
		    harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
		    harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8)),
		};

		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), 0);
	}
	if (kinst_func != NULL) {
		uint32_t pd = dofb_probedesc(&b, "kinst", "", kinst_func, "");
		dof_actdesc_t a[2] = {
		    harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
		    harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8)),
		};

		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 1 << 16}};

		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, matched), 0);
	return st;
}

/* The length of f's instruction at off (from the disassembly), 0 if off
 * is no boundary. */
static size_t
insn_len(const func_t *f, size_t off)
{
	for (size_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].off == off)
			return i + 1 < f->ninsns ? f->insns[i + 1].off - off : f->size - off;
	return 0;
}

/* Every byte that differs from the pristine text is the ISA's breakpoint
 * for that instruction where the function wants one, and every wanted site
 * has one. */
static void
check_patches(const char *what, bool armed)
{
	for (size_t i = 0; i < nfuncs; i++) {
		func_t *f = &funcs[i];

		for (size_t off = 0; off < f->size; off++) {
			const uint8_t *at = text + f->off + off;
			bool want = armed && f->eligible && off < sizeof(f->want) &&
			            (f->want[off] || f->kinst[off]);
			size_t len = insn_len(f, off), bplen = 0;
			uint8_t bp[16];
			bool have;

			if (len != 0)
				bplen = isa_breakpoint_insn(len, bp, sizeof(bp));
			have = bplen != 0 && memcmp(at, bp, bplen) == 0 &&
			       memcmp(at, pristine + f->off + off, bplen) != 0;
			if (!have && memcmp(at, pristine + f->off + off, 1) != 0) {
				fprintf(stderr, "%s: %s+%#zx: changed, not a breakpoint\n", what,
				        f->name, off);
				CHECK(0);
			}
#if !defined(TEST_ISA_X86_64)
			if (!want && have && armed && f->eligible && maybe_site(f, off)) {
				off += bplen - 1;
				continue;
			}
#endif
			if (want != have)
				fprintf(stderr, "%s: %s+%#zx: breakpoint %s\n", what, f->name, off,
				        want ? "missing" : "unexpected");
			CHECK_EQ(want, have);
			if (have)
				off += bplen - 1;
		}
	}
	/* outside the breakpoints, the text is untouched */
	if (!armed)
		CHECK(memcmp(text, pristine, text_size) == 0);
}

/* ---- Stepping on register and stack images ----------------------------------
 * The stepper's memory accesses go through the nofault primitives, which on
 * this machine are its own (x86_64), so a foreign ISA's stepper runs here on
 * host memory: a register image and a stack array. */

static uint64_t stack_img[512];
#define RETADDR 0xffffffff81234560ULL
#define FP_VAL 0xffffff8012340000ULL

typedef struct fired {
	bool entry;
	size_t off; /* return: the site's offset */
	uint64_t arg0, arg1;
} fired_t;

static fired_t fired[256];
static size_t nfired;

static uint64_t
sp0(void)
{
	return (uint64_t)(uintptr_t)&stack_img[256];
}

static void
regs_image(isa_regs_t *r, uintptr_t site)
{
	memset(r, 0, sizeof(*r));
	memset(stack_img, 0, sizeof(stack_img));
	r->r[ISA_REG_SP] = sp0();
	r->r[ISA_REG_FP] = FP_VAL;
	for (unsigned i = 0; i < isa_narg_regs && i < 5; i++)
		r->r[isa_arg_regs[i]] = 0x1001 + i;
	r->r[ISA_REG_RET0] = 42;
#if defined(TEST_ISA_X86_64)
	stack_img[256] = RETADDR;
	r->r[ISA_REG_RFL] = 0x202;
	r->r[ISA_REG_PC] = site + 1; /* int3 reports the byte after it */
#else
#if defined(TEST_ISA_AARCH64)
	r->r[ISA_REG_LR] = RETADDR;
#else
	r->r[ISA_REG_RA] = RETADDR;
#endif
	r->r[ISA_REG_PC] = site; /* brk and ebreak report themselves */
#endif
}

/* A register's number in the disassembler's text ("x29", "s0", "ra"). */
#if defined(TEST_ISA_RISCV)
static int
rv_reg(const char *s)
{
	static const char *const abi[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2",
	                                    "s0",   "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
	                                    "a6",   "a7", "s2",  "s3",  "s4", "s5", "s6", "s7",
	                                    "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

	for (int i = 0; i < 32; i++)
		if (strncmp(s, abi[i], strlen(abi[i])) == 0 &&
		    !isalnum((unsigned char)s[strlen(abi[i])]))
			return i;
	return -1;
}
#endif

/*
 * What the entry instruction must have done, for the prologue forms each
 * ISA's compilers emit first; false when the form is not modelled here
 * (the engine's own tests cover every instruction it steps).
 */
static bool
check_entry_step(const insn_t *in, uintptr_t site, size_t len, const isa_regs_t *r)
{
	uint64_t sp = sp0();
	isa_probe_insn_t pi;
	size_t below = 0;

	/* how far below sp the emulation stores: what a port's trap frame
	 * must leave free (instprov.h ic_stack_gap) */
	CHECK_EQ(isa_probe_prepare(pristine + (site - (uintptr_t)text), len, site, &pi), 0);
#if defined(TEST_ISA_X86_64)
	below = 8;
#elif defined(TEST_ISA_AARCH64)
	{
		long n;

		if (strcmp(in->mnem, "stp") == 0 &&
		    sscanf(in->ops, "x29, x30, [sp, #%ld]!", &n) == 1)
			below = (size_t)-n;
	}
#endif
	CHECK_EQ(instprov_isa_stack_write(&pi), below);
#if defined(TEST_ISA_X86_64)
	(void)in;
	(void)len;
	CHECK_EQ(r->r[ISA_REG_RSP], sp - 8); /* push %rbp */
	CHECK_EQ(stack_img[255], FP_VAL);
	CHECK_EQ(r->r[ISA_REG_PC], site + 1);
	return true;
#elif defined(TEST_ISA_AARCH64)
	long n;

	if (strcmp(in->mnem, "stp") == 0 && sscanf(in->ops, "x29, x30, [sp, #%ld]!", &n) == 1) {
		CHECK_EQ(r->r[ISA_REG_SP], sp + (uint64_t)n);
		CHECK_EQ(stack_img[256 + n / 8], FP_VAL);
		CHECK_EQ(stack_img[256 + n / 8 + 1], RETADDR);
		CHECK_EQ(r->r[ISA_REG_PC], site + len);
		return true;
	}
	if (strcmp(in->mnem, "sub") == 0 && sscanf(in->ops, "sp, sp, #%ld", &n) == 1) {
		CHECK_EQ(r->r[ISA_REG_SP], sp - (uint64_t)n);
		CHECK_EQ(r->r[ISA_REG_PC], site + len);
		return true;
	}
	return false;
#else
	long n;
	char rs[8];

	if (strcmp(in->mnem, "addi") == 0 && sscanf(in->ops, "sp, sp, %ld", &n) == 1) {
		CHECK_EQ(r->r[ISA_REG_SP], sp + (uint64_t)n);
		CHECK_EQ(r->r[ISA_REG_PC], site + len);
		return true;
	}
	if (strcmp(in->mnem, "sd") == 0 && sscanf(in->ops, "%7[a-z0-9], %ld(sp)", rs, &n) == 2 &&
	    rv_reg(rs) > 0) {
		CHECK_EQ(stack_img[256 + n / 8], r->r[rv_reg(rs)]);
		CHECK_EQ(r->r[ISA_REG_PC], site + len);
		return true;
	}
	return false;
#endif
}

static void
step_entries_and_returns(void)
{
	size_t modelled = 0, stepped = 0;

	for (size_t i = 0; i < nfuncs; i++) {
		func_t *f = &funcs[i];
		uintptr_t base = (uintptr_t)text + f->off;

		if (!f->eligible)
			continue;
		for (size_t k = 0; k < f->ninsns; k++) {
			const insn_t *in = &f->insns[k];
			uintptr_t site = base + in->off;
			size_t len = insn_len(f, in->off);
			uintptr_t fault = 0;
			uint64_t a0, a1, rv0;
			isa_regs_t r;

			if (!f->want[in->off] && !f->kinst[in->off])
				continue;
			regs_image(&r, site);
			a0 = r.r[isa_arg_regs[0]];
			a1 = r.r[isa_arg_regs[1]];
			rv0 = r.r[ISA_REG_RET0];
			stepped++;
			if (kernel_mode) {
				const isa_probe_insn_t *pi = instprov_fire(site, &r);

				CHECK(pi != NULL);
				if (pi != NULL)
					CHECK(pi->pi_orig[0] == (in->off == 0 ? 0x55 : 0xc3));
				CHECK_EQ(r.r[ISA_REG_PC], site + 1); /* the kernel steps it */
				modelled++;
			} else {
				CHECK_EQ(instprov_trap(&r, &fault), INST_TRAP_DONE);
				if (in->off == 0) {
					modelled += check_entry_step(in, site, len, &r);
				} else if (!f->want[in->off]) {
					/* a kinst probe alone: stepped by check_kinst */
				} else if (starts(in->mnem, "ret")) {
					modelled++;
					CHECK_EQ(r.r[ISA_REG_PC], RETADDR);
#if defined(TEST_ISA_X86_64)
					CHECK_EQ(r.r[ISA_REG_SP], sp0() + 8);
#else
					CHECK_EQ(r.r[ISA_REG_SP], sp0());
#endif
				} else if (in->target != 0 && target_outside(f, in)) {
					/* a tail call (taken, for a conditional one, or not) */
					uint64_t t = (uintptr_t)text + (in->target - text_vaddr);

					modelled++;
					CHECK(r.r[ISA_REG_PC] == t ||
					      r.r[ISA_REG_PC] == site + len);
					CHECK_EQ(r.r[ISA_REG_SP], sp0());
				}
			}
			/* records in the engine's order: entry, offset, return */
			if (in->off == 0 && f->want[0] && nfired < 256)
				fired[nfired++] = (fired_t){true, 0, a0, a1};
			if (f->kinst[in->off] && nfired < 256)
				fired[nfired++] = (fired_t){false, in->off, a0, a1};
			if (in->off != 0 && f->want[in->off] && nfired < 256)
				fired[nfired++] = (fired_t){false, in->off, in->off, rv0};
		}
	}
	printf("stepped %zu probed instructions on register images, %zu against a model\n", stepped,
	       modelled);
	CHECK(modelled > 0);
}

/* The records: EPID, timestamp, arg0, arg1 (32 bytes each), in firing order. */
static void
check_records(dtrace_state_t *st)
{
	dtrace_bufdesc_t d;
	size_t n = 0;

	harness_snap(st, 0, false, &d);
	for (uint64_t o = 0; o + 32 <= d.dtbd_size && n < nfired; o += 32, n++) {
		CHECK_EQ(rd64(harness_data + o + 16), fired[n].arg0);
		CHECK_EQ(rd64(harness_data + o + 24), fired[n].arg1);
	}
	CHECK_EQ(n, nfired);
	CHECK_EQ(d.dtbd_size, nfired * 32);
}

#if defined(TEST_ISA_X86_64)
/* kinst::sample_early: a probe per instruction, named in decimal; an
 * out-of-line one's trampoline is the copy and a jump back; a %rip-relative
 * one still reaches its byte from the trampoline. */
static void
check_kinst(void)
{
	func_t *f = func_named("sample_early");
	dtrace_provider_id_t kid = instprov_kinst_id();
	size_t nprobes = 0, nripdisp = 0, nool = 0;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	for (size_t k = 0; k < f->ninsns; k++) {
		const insn_t *in = &f->insns[k];
		const uint8_t *orig = pristine + f->off + in->off;
		uintptr_t site = (uintptr_t)text + f->off + in->off;
		bool want = !kernel_mode || (orig[0] == 0x55 || orig[0] == 0xc3 ||
		                             orig[0] == 0xc9 || orig[0] == 0x90);
		char name[24];
		dtrace_id_t id;
		isa_regs_t r, outer;
		const isa_regs_t *slot;
		size_t len = k + 1 < f->ninsns ? f->insns[k + 1].off - in->off : f->size - in->off;

		snprintf(name, sizeof(name), "%zu", in->off);
		id = dtrace_probe_lookup(kid, "kernel", "sample_early", name);
		if (kernel_mode && want && len != 1)
			want = false;
		CHECK_EQ(id != 0, want);
		if (id == 0)
			continue;
		nprobes++;
		if (kernel_mode)
			continue;
		regs_image(&r, site);
		/* through a port's whole route: the slot behind kern_trap_regs()
		 * holds the outer value again afterwards */
		slot = &outer;
		CHECK(instprov_breakpoint(&r, &slot));
		CHECK(slot == &outer);
		if (starts(in->mnem, "ret") || in->target != 0 ||
		    (r.r[ISA_REG_RIP] >= (uintptr_t)text &&
		     r.r[ISA_REG_RIP] < (uintptr_t)text + text_size))
			continue; /* emulated: a return, a branch or call, the rest in place */
		/* out of line: the copy, then jmp *0(%rip) and the way back */
		{
			const uint8_t *t = (const uint8_t *)(uintptr_t)r.r[ISA_REG_RIP];
			uint64_t back;

			nool++;
			memcpy(&back, t + len + 6, 8);
			CHECK(t[len] == 0xff && t[len + 1] == 0x25);
			CHECK_EQ(back, site + len);
			if (memcmp(t, orig, len) != 0) {
				/* retargeted: the displacement alone differs */
				isa_insn_t a, b;

				nripdisp++;
				CHECK(isa_insn_decode(orig, len, site, &a) == 0);
				CHECK(isa_insn_decode(t, len, (uintptr_t)t, &b) == 0);
				CHECK((a.ii_flags & ISA_INSN_PCREL) &&
				      (b.ii_flags & ISA_INSN_PCREL));
				bool same = false;

				/* the 4 bytes that alone differ are the displacement */
				for (size_t j = 0; j + 4 <= len; j++) {
					int32_t d0, d1;

					if (memcmp(orig, t, j) != 0 ||
					    memcmp(orig + j + 4, t + j + 4, len - j - 4) != 0)
						continue;
					memcpy(&d0, orig + j, 4);
					memcpy(&d1, t + j, 4);
					if ((uint64_t)site + len + (int64_t)d0 ==
					    (uint64_t)(uintptr_t)t + len + (int64_t)d1)
						same = true;
				}
				CHECK(same);
			}
		}
	}
	printf("kinst::sample_early: %zu probes (%zu instructions), %zu out of line, %zu of "
	       "them %%rip-relative and retargeted\n",
	       nprobes, f->ninsns, nool, nripdisp);
	if (!kernel_mode) {
		CHECK_EQ(nprobes, f->ninsns);
		CHECK(nripdisp > 0);
	}
}
#endif

/* ---- Module pins ----------------------------------------------------------- */

static uint8_t text_b[sizeof(text)] __attribute__((aligned(4096)));
static uint8_t text_c[sizeof(text)] __attribute__((aligned(4096)));
static testport_symbol_t syms_b[MAXFUNCS], syms_c[MAXFUNCS];

typedef struct pin_count {
	const char *pc_name;
	const uint8_t *pc_text;
	int pc_held, pc_pins, pc_unpins, pc_refused;
} pin_count_t;

static pin_count_t pin_counts[] = {
    {"kernel", text, 0, 0, 0, 0},
    {"modb", text_b, 0, 0, 0, 0},
    {"modc", text_c, 0, 0, 0, 0},
};
static int pin_misuse; /* a pin of a pinned module, an unpin of an unpinned one */

static pin_count_t *
pin_count(const char *name)
{
	for (size_t i = 0; i < sizeof(pin_counts) / sizeof(pin_counts[0]); i++)
		if (strcmp(pin_counts[i].pc_name, name) == 0)
			return &pin_counts[i];
	fprintf(stderr, "pin of an unknown module %s\n", name);
	exit(1);
}

static int
ip_pin(const dtrace_port_module_t *mod)
{
	pin_count_t *pc = pin_count(mod->dpm_name);

	if (pc->pc_text == text_c) {
		pc->pc_refused++;
		return DTRACE_ENOENT;
	}
	if (pc->pc_held != 0)
		pin_misuse++;
	pc->pc_held++;
	pc->pc_pins++;
	return 0;
}

static void
ip_unpin(const dtrace_port_module_t *mod)
{
	pin_count_t *pc = pin_count(mod->dpm_name);

	if (pc->pc_held != 1)
		pin_misuse++;
	pc->pc_held--;
	pc->pc_unpins++;
	/* the module as it was pinned, no breakpoint left in it */
	CHECK_EQ(mod->dpm_text, (uintptr_t)pc->pc_text);
	CHECK_EQ(mod->dpm_textsize, text_size);
	CHECK(memcmp(pc->pc_text, pristine, text_size) == 0);
}

static void
probematch(dtrace_state_t *st, const char *prov, const char *mod, const char *func,
           const char *name)
{
	dtrace_probedesc_t pd;

	memset(&pd, 0, sizeof(pd));
	snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s", prov);
	snprintf(pd.dtpd_mod, sizeof(pd.dtpd_mod), "%s", mod);
	snprintf(pd.dtpd_func, sizeof(pd.dtpd_func), "%s", func);
	snprintf(pd.dtpd_name, sizeof(pd.dtpd_name), "%s", name);
	(void)dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &pd, NULL);
}

/* Destroy every probe of fbt or kinst in mod that the core lets go (not
 * an enabled one); how many went. */
static size_t
destroy_all(dtrace_provider_id_t prov, const char *mod)
{
	bool kinst = prov == instprov_kinst_id();
	size_t n = 0;
	char name[24];

	for (size_t i = 0; i < nfuncs; i++) {
		for (size_t k = 0; k < (kinst ? funcs[i].size : 2); k++) {
			dtrace_id_t id;

			if (kinst)
				snprintf(name, sizeof(name), "%zu", k);
			else
				snprintf(name, sizeof(name), "%s", k == 0 ? "entry" : "return");
			id = dtrace_probe_lookup(prov, mod, funcs[i].name, name);
			if (id != 0 && dtrace_probe_destroy(prov, id) == 0)
				n++;
		}
	}
	return n;
}

/* Enable fbt:modb:<fname>:entry, tracing arg0. */
static void
enable_one(dtrace_state_t *st, const char *fname)
{
	const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 1 << 16}};
	int matched = -1;
	dofb_t b;
	dof_actdesc_t a;

	dofb_init(&b);
	a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
	dofb_ecbdesc(&b, dofb_probedesc(&b, "fbt", "modb", fname, "entry"), DOF_SECIDX_NONE,
	             dofb_actions(&b, &a, 1), 0);
	dofb_options(&b, opts, 1);
	CHECK_EQ(harness_enable_dof(st, &b, &matched), 0);
	CHECK_EQ(matched, 1);
}

static void
check_module_pins(void)
{
	pin_count_t *pk = pin_count("kernel"), *pb = pin_count("modb"), *pcc = pin_count("modc");
	dtrace_port_module_t mb, mc;
	instprov_conf_t conf;
	dtrace_state_t *st = NULL;
	const char *fname = NULL;
	size_t nkinst;

	for (size_t i = 0; i < nfuncs && fname == NULL; i++)
		if (funcs[i].eligible && funcs[i].want[0])
			fname = funcs[i].name;
	CHECK(fname != NULL);
	if (fname == NULL)
		return;
	memcpy(text_b, pristine, text_size);
	memcpy(text_c, pristine, text_size);
	for (size_t i = 0; i < nfuncs; i++) {
		syms_b[i] = syms[i];
		syms_b[i].ts_addr = (uintptr_t)text_b + funcs[i].off;
		syms_c[i] = syms[i];
		syms_c[i].ts_addr = (uintptr_t)text_c + funcs[i].off;
	}
	memset(&mb, 0, sizeof(mb));
	mb.dpm_name = "modb";
	mb.dpm_text = (uintptr_t)text_b;
	mb.dpm_textsize = text_size;
	testport_add_module(&mb, syms_b, nfuncs);
	mc = mb;
	mc.dpm_name = "modc";
	mc.dpm_text = (uintptr_t)text_c;
	testport_add_module(&mc, syms_c, nfuncs);

	memset(&conf, 0, sizeof(conf));
	conf.ic_step = kernel_mode ? INSTPROV_STEP_KERNEL : INSTPROV_STEP_ENGINE;
	conf.ic_accept = illumos_accept;
	conf.ic_stack_gap = (size_t)-1;
	conf.ic_module_pin = ip_pin;
	conf.ic_module_unpin = ip_unpin;
	conf.ic_lock = ip_lock;
	CHECK_EQ(instprov_init(&conf), 0);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);

	/* fbt in every module: each pinned once, modc refused and probeless
	 * (the consumer's open made none: nothing was pinned) */
	CHECK_EQ(pk->pc_pins + pb->pc_pins + pcc->pc_refused, 0);
	probematch(st, "fbt", "", "sample_*", "entry");
	CHECK_EQ(pk->pc_held, 1);
	CHECK_EQ(pb->pc_held, 1);
	CHECK_EQ(pcc->pc_held, 0);
	CHECK(pcc->pc_refused > 0);
	CHECK(strstr(testport_last_log(), "modc") != NULL);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "modb", fname, "entry") != 0);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "modc", NULL, NULL) == 0);
	/* more probes, of the other provider too: no new pin */
	probematch(st, "kinst", "modb", fname, "");
	probematch(st, "kinst", "modc", fname, "");
	probematch(st, "fbt", "", "sample_*", "return");
	CHECK(dtrace_probe_lookup(instprov_kinst_id(), "modb", fname, "0") != 0);
	CHECK(dtrace_probe_lookup(instprov_kinst_id(), "modc", NULL, NULL) == 0);
	CHECK_EQ(pb->pc_pins, 1);
	CHECK_EQ(pk->pc_pins, 1);
	CHECK_EQ(pin_misuse, 0);

	/* an enabled probe keeps its module pinned */
	enable_one(st, fname);
	CHECK(memcmp(text_b, pristine, text_size) != 0);
	CHECK(destroy_all(instprov_fbt_id(), "modb") > 0);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "modb", fname, "entry") != 0);
	nkinst = destroy_all(instprov_kinst_id(), "modb");
	CHECK(nkinst > 0);
	CHECK_EQ(pb->pc_held, 1);
	CHECK_EQ(pb->pc_unpins, 0);
	dtrace_state_close(st);
	st = NULL;
	CHECK(memcmp(text_b, pristine, text_size) == 0);
	/* its last probe destroyed: unpinned (text pristine, ip_unpin checks) */
	CHECK_EQ(destroy_all(instprov_fbt_id(), "modb"), 1);
	CHECK_EQ(pb->pc_held, 0);
	CHECK_EQ(pb->pc_unpins, 1);
	CHECK_EQ(pk->pc_held, 1);
	printf("pins: %zu kinst probes in modb; fbt and kinst counted together\n", nkinst);

	/* a consumer's open pins no module (kernel stays, modb is not made
	 * again); a walk making nothing pins and unpins; kinst alone keeps
	 * it pinned */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK_EQ(pb->pc_pins, 1);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "modb", NULL, NULL) == 0);
	probematch(st, "fbt", "modb", "no_such_function", "entry");
	CHECK_EQ(pb->pc_pins, 2);
	CHECK_EQ(pb->pc_unpins, 2);
	probematch(st, "kinst", "modb", fname, "");
	probematch(st, "fbt", "modb", fname, "entry");
	CHECK_EQ(pb->pc_pins, 3);
	/* (kinst's description was offered to fbt too: entry and return) */
	CHECK(destroy_all(instprov_fbt_id(), "modb") > 0);
	CHECK_EQ(pb->pc_held, 1);
	CHECK_EQ(destroy_all(instprov_kinst_id(), "modb"), nkinst);
	CHECK_EQ(pb->pc_held, 0);
	CHECK_EQ(pb->pc_unpins, 3);
	/* asked again: new sites, armed and disarmed as before */
	probematch(st, "fbt", "modb", fname, "entry");
	enable_one(st, fname);
	CHECK(memcmp(text_b, pristine, text_size) != 0);
	dtrace_state_close(st);
	CHECK(memcmp(text_b, pristine, text_size) == 0);

	/* at unload every pin goes, each once */
	CHECK_EQ(instprov_fini(), 0);
	for (size_t i = 0; i < sizeof(pin_counts) / sizeof(pin_counts[0]); i++) {
		CHECK_EQ(pin_counts[i].pc_held, 0);
		CHECK_EQ(pin_counts[i].pc_pins, pin_counts[i].pc_unpins);
	}
	CHECK_EQ(pk->pc_pins, 1);
	CHECK_EQ(pin_misuse, 0);
	CHECK(memcmp(text_b, pristine, text_size) == 0);
	printf("pins: kernel %d/%d, modb %d/%d, modc refused %d times\n", pk->pc_pins,
	       pk->pc_unpins, pb->pc_pins, pb->pc_unpins, pcc->pc_refused);
}

int
main(int argc, char **argv)
{
	dtrace_state_t *st;
	dtrace_port_module_t mod;
	int matched = -1;
	size_t nentry = 0, nret = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s engine|kernel SAMPLE.elf OBJDUMP\n", argv[0]);
		return 2;
	}
	kernel_mode = strcmp(argv[1], "kernel") == 0;
	load_elf(argv[2]);
	load_disassembly(argv[3], argv[2]);
	for (size_t i = 0; i < nfuncs; i++) {
		func_t *f = &funcs[i];

		CHECK(f->ninsns > 0);
		f->eligible = !starts(f->name, "dtrace_") && frame_setup(f);
		if (f->eligible) {
			expect_sites(f);
#if defined(TEST_ISA_X86_64)
			/* kinst::sample_early: every instruction the engine steps */
			for (size_t k = 0; strcmp(f->name, "sample_early") == 0 && k < f->ninsns;
			     k++) {
				size_t o = f->insns[k].off;
				size_t len =
				    k + 1 < f->ninsns ? f->insns[k + 1].off - o : f->size - o;
				uint8_t c = pristine[f->off + o];

				f->kinst[o] = !kernel_mode ||
				              (len == 1 &&
				               (c == 0x55 || c == 0xc3 || c == 0xc9 || c == 0x90));
			}
#endif
			nentry += f->want[0];
			for (size_t off = 1; off < f->size && off < sizeof(f->want); off++)
				nret += f->want[off];
		}
		printf("%-24s %4zu bytes %3zu insns %s\n", f->name, f->size, f->ninsns,
		       f->eligible ? "" : "(left alone)");
	}
	CHECK(func_named("sample_noframe") != NULL && !func_named("sample_noframe")->eligible);
	CHECK(func_named("sample_leaf") != NULL);

	setup();
	(void)dtrace_port_module_iter(NULL, find_kmod, &mod);
	st = enable(
#if defined(TEST_ISA_X86_64)
	    "sample_early",
#else
	    NULL,
#endif
	    &matched);
	printf("%s mode: %zu entry and %zu return sites expected; %d probes matched\n",
	       kernel_mode ? "kernel" : "engine", nentry, nret, matched);
	check_patches("enabled", true);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "kernel", "sample_noframe", NULL) == 0);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "kernel", "dtrace_sample_excluded", NULL) ==
	      0);
	CHECK(hold_count == 1);

	{
		int32_t cpu = -1;

		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
		testport_set_cpu(0);
		step_entries_and_returns();
		check_records(st);
#if defined(TEST_ISA_X86_64)
		check_kinst();
#endif
	}
	/* A module with an enabled probe stays. */
	CHECK_EQ(instprov_module_unloading(&mod), DTRACE_EBUSY);
	dtrace_state_close(st);
	CHECK(hold_count == 0);
	check_patches("disabled", false);
	/* Unloaded: its probes go. */
	CHECK_EQ(instprov_module_unloading(&mod), 0);
	CHECK(dtrace_probe_lookup(instprov_fbt_id(), "kernel", NULL, NULL) == 0);
	CHECK(dtrace_probe_lookup(instprov_kinst_id(), "kernel", NULL, NULL) == 0);
	CHECK_EQ(instprov_fini(), 0);
	CHECK(memcmp(text, pristine, text_size) == 0);
	check_module_pins();
	CHECK_EQ(nop_stop(), 0);
	return TEST_DONE();
}
