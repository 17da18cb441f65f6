/*
 * port/linux/unwind.c: the table of this process's objects that stack
 * walks in probe context unwind through (.eh_frame_hdr, isa_cfi_walk).
 *
 * Built from dl_iterate_phdr outside probe context: when the host or an
 * agent starts, and when the dynamic linker reports a change (the agent's
 * hook at its debugger breakpoint).  Each object contributes its
 * executable segments with the address of its PT_GNU_EH_FRAME segment.
 * Two tables alternate: a refresh fills the one not in use and then
 * publishes it, so a walk in progress keeps a consistent table unless two
 * refreshes overtake it; even then every read the walk makes of the
 * process's memory is nofault, so a stale entry costs frames, never a
 * fault.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdatomic.h>

#include "linux_impl.h"

#define UNWIND_MAXMODS 1024

static isa_cfi_module_t unwind_tab[2][UNWIND_MAXMODS];
static size_t unwind_n[2];
static _Atomic int unwind_cur = -1;

typedef struct unwind_fill {
	isa_cfi_module_t *uf_tab;
	size_t uf_n;
} unwind_fill_t;

static int
unwind_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	unwind_fill_t *uf = arg;
	uintptr_t hdr = 0;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	for (i = 0; i < info->dlpi_phnum && uf->uf_n < UNWIND_MAXMODS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uf->uf_tab[uf->uf_n].cm_lo = info->dlpi_addr + ph->p_vaddr;
		uf->uf_tab[uf->uf_n].cm_hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		uf->uf_tab[uf->uf_n].cm_eh_frame_hdr = hdr;
		uf->uf_n++;
	}
	return 0;
}

void
linux_unwind_refresh(void)
{
	int next = atomic_load(&unwind_cur) == 0 ? 1 : 0;
	unwind_fill_t uf = {unwind_tab[next], 0};

	dl_iterate_phdr(unwind_one, &uf);
	unwind_n[next] = uf.uf_n;
	atomic_store(&unwind_cur, next);
}

int
linux_unwind_walk(const isa_regs_t *regs, uint64_t *pcs, int max)
{
	int cur = atomic_load(&unwind_cur);

	if (cur < 0)
		return -1;
	return isa_cfi_walk(regs, unwind_tab[cur], unwind_n[cur], pcs, max);
}
