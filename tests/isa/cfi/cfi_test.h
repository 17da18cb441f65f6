/*
 * tests/isa/cfi/cfi_test.h: what the CFI unwinder's tests share.
 *
 * The tests link the ISA module alone (no port), so they bring the two
 * things a port would: a SIGSEGV/SIGBUS handler that resumes a faulting
 * nofault primitive at isa_nofault_pad, and the translation of a Linux
 * ucontext into isa_regs_t.  Both are per processor, the only #if here;
 * they follow each isa/<isa>/isa_regs.h.  cfi_modules() builds the module
 * table the way a port does, from dl_iterate_phdr: one entry per
 * executable PT_LOAD segment, with the object's PT_GNU_EH_FRAME address.
 * A failed CHECK prints where and why and makes the test exit non-zero.
 */
#ifndef DTRACE_TESTS_ISA_CFI_TEST_H
#define DTRACE_TESTS_ISA_CFI_TEST_H

/* Include first: glibc's names (REG_*, dl_iterate_phdr) need it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "isa.h"

static int cfi_test_failures __attribute__((unused));

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			cfi_test_failures++;                                                       \
		}                                                                                  \
	} while (0)

#define TEST_DONE()                                                                                \
	do {                                                                                       \
		if (cfi_test_failures != 0) {                                                      \
			fprintf(stderr, "%d check(s) failed\n", cfi_test_failures);                \
			return 1;                                                                  \
		}                                                                                  \
		printf("ok\n");                                                                    \
		return 0;                                                                          \
	} while (0)

/* Faults taken by the nofault primitives since start (the walker's reads
 * of bad data end here, not in a crash). */
static volatile sig_atomic_t cfi_test_nofaults;

static __attribute__((unused)) void
cfi_ucontext_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	const mcontext_t *mc = &uc->uc_mcontext;

	memset(regs, 0, sizeof(*regs));
#if defined(__x86_64__)
	regs->r[ISA_REG_R15] = (uint64_t)mc->gregs[REG_R15];
	regs->r[ISA_REG_R14] = (uint64_t)mc->gregs[REG_R14];
	regs->r[ISA_REG_R13] = (uint64_t)mc->gregs[REG_R13];
	regs->r[ISA_REG_R12] = (uint64_t)mc->gregs[REG_R12];
	regs->r[ISA_REG_R11] = (uint64_t)mc->gregs[REG_R11];
	regs->r[ISA_REG_R10] = (uint64_t)mc->gregs[REG_R10];
	regs->r[ISA_REG_R9] = (uint64_t)mc->gregs[REG_R9];
	regs->r[ISA_REG_R8] = (uint64_t)mc->gregs[REG_R8];
	regs->r[ISA_REG_RDI] = (uint64_t)mc->gregs[REG_RDI];
	regs->r[ISA_REG_RSI] = (uint64_t)mc->gregs[REG_RSI];
	regs->r[ISA_REG_RBP] = (uint64_t)mc->gregs[REG_RBP];
	regs->r[ISA_REG_RBX] = (uint64_t)mc->gregs[REG_RBX];
	regs->r[ISA_REG_RDX] = (uint64_t)mc->gregs[REG_RDX];
	regs->r[ISA_REG_RCX] = (uint64_t)mc->gregs[REG_RCX];
	regs->r[ISA_REG_RAX] = (uint64_t)mc->gregs[REG_RAX];
	regs->r[ISA_REG_RIP] = (uint64_t)mc->gregs[REG_RIP];
	regs->r[ISA_REG_RSP] = (uint64_t)mc->gregs[REG_RSP];
	regs->r[ISA_REG_RFL] = (uint64_t)mc->gregs[REG_EFL];
#elif defined(__aarch64__)
	for (int i = 0; i < 31; i++)
		regs->r[i] = mc->regs[i];
	regs->r[ISA_REG_SPREG] = mc->sp;
	regs->r[ISA_REG_PCREG] = mc->pc;
	regs->r[ISA_REG_PSTATE] = mc->pstate;
#elif defined(__riscv)
	for (int i = 1; i < 32; i++)
		regs->r[i] = mc->__gregs[i];
	regs->r[ISA_REG_PCREG] = mc->__gregs[0]; /* REG_PC */
#else
#error "no ucontext translation for this processor"
#endif
}

static void
cfi_nofault_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	mcontext_t *mc = &uc->uc_mcontext;
	uintptr_t pc, addr = (uintptr_t)si->si_addr;

#if defined(__x86_64__)
	pc = (uintptr_t)mc->gregs[REG_RIP];
#elif defined(__aarch64__)
	pc = (uintptr_t)mc->pc;
#elif defined(__riscv)
	pc = (uintptr_t)mc->__gregs[0];
#endif
	if (!isa_nofault_contains(pc)) {
		/* Not ours: die of it as if no handler were installed. */
		signal(sig, SIG_DFL);
		return;
	}
	cfi_test_nofaults++;
#if defined(__x86_64__)
	mc->gregs[REG_RAX] = (greg_t)addr;
	mc->gregs[REG_RDX] = 1;
	mc->gregs[REG_RIP] = (greg_t)(uintptr_t)isa_nofault_pad;
#elif defined(__aarch64__)
	mc->regs[0] = addr;
	mc->regs[1] = 1;
	mc->pc = (uintptr_t)isa_nofault_pad;
#elif defined(__riscv)
	mc->__gregs[10] = addr;
	mc->__gregs[11] = 1;
	mc->__gregs[0] = (uintptr_t)isa_nofault_pad;
#endif
}

static void
cfi_install_nofault_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = cfi_nofault_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

#define CFI_MAX_MODULES 256

typedef struct cfi_modtab {
	isa_cfi_module_t mt_mods[CFI_MAX_MODULES];
	size_t mt_n;
} cfi_modtab_t;

static int
cfi_modules_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	cfi_modtab_t *t = arg;
	uintptr_t hdr = 0;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	for (i = 0; i < info->dlpi_phnum && t->mt_n < CFI_MAX_MODULES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X) == 0)
			continue;
		t->mt_mods[t->mt_n].cm_lo = info->dlpi_addr + ph->p_vaddr;
		t->mt_mods[t->mt_n].cm_hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		t->mt_mods[t->mt_n].cm_eh_frame_hdr = hdr;
		t->mt_n++;
	}
	return 0;
}

/* The module table of this process, as a port builds it (not in a signal
 * handler: dl_iterate_phdr takes the loader's lock). */
static __attribute__((unused)) void
cfi_modules(cfi_modtab_t *t)
{
	t->mt_n = 0;
	dl_iterate_phdr(cfi_modules_cb, t);
}

#endif
