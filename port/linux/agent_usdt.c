/*
 * port/linux/agent_usdt.c: the agent takes back the consumer's semaphore
 * increments.
 *
 * While a SystemTap probe is enabled the consumer keeps its semaphore
 * (an unsigned short in the program's data) incremented, so the program
 * does the work its is-enabled tests guard, and records each increment in
 * the process's block (agent_proto.h).  If the consumer dies without
 * saying DETACH, the agent's thread takes them back here, as it puts back
 * the text; a forked child, which runs untraced, takes back its copies.
 * An address is touched only if it still lies in a writable segment of a
 * loaded object (the record may outlive an object the consumer had not yet
 * heard was unloaded), and never below zero.  Not probe context.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdint.h>

#include "agent_proto.h"
#include "linux_impl.h"

typedef struct sem_where {
	uintptr_t sw_addr;
	bool sw_ok;
} sem_where_t;

static int
sem_where_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	sem_where_t *w = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && w->sw_addr >= lo &&
		    w->sw_addr + sizeof(uint16_t) <= lo + ph->p_memsz) {
			w->sw_ok = true;
			return 1;
		}
	}
	return 0;
}

/* Take one back in a process whose other threads run on. */
static void
sem_release_shared(uintptr_t addr)
{
	uint16_t v;
	sem_where_t w = {addr, false};

	dl_iterate_phdr(sem_where_cb, &w);
	if (!w.sw_ok)
		return;
	/*
	 * A compare-and-swap on the aligned 32-bit word that holds the
	 * semaphore, not on its 16 bits: riscv64 has no 16-bit CAS (gcc would
	 * call libatomic's __atomic_compare_exchange_2, which the agent does
	 * not link).  The word is in the semaphore's page, so mapped and
	 * writable as the semaphore is; every Linux ISA here is little-endian.
	 */
	uint32_t *word = (uint32_t *)(addr & ~(uintptr_t)3), old;
	unsigned shift = (unsigned)(addr & 3) * 8;

	old = __atomic_load_n(word, __ATOMIC_RELAXED);
	for (;;) {
		v = (uint16_t)(old >> shift);
		if (v == 0)
			return;
		uint32_t nw = (old & ~((uint32_t)0xffff << shift)) | ((uint32_t)(uint16_t)(v - 1) << shift);
		if (__atomic_compare_exchange_n(word, &old, nw, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

/* In a forked child: one thread, and the loader's lock may be held by a
 * thread that did not come along, so no dl_iterate_phdr; the nofault
 * copies say whether the address is there. */
static void
sem_release_child(uintptr_t addr)
{
	isa_nofault_result_t r = isa_nofault_load16(addr);
	uint16_t v;

	if (r.fault != 0 || r.value == 0)
		return;
	v = (uint16_t)(r.value - 1);
	(void)isa_nofault_copy((void *)addr, (uintptr_t)&v, sizeof(v));
}

void
linux_agent_usdt_release(struct linux_agent_block *b, bool child)
{
	if (b == NULL)
		return;
	for (linux_agent_sems_t *c = __atomic_load_n(&b->lab_sems, __ATOMIC_ACQUIRE); c != NULL;
	     c = __atomic_load_n(&c->lass_next, __ATOMIC_ACQUIRE)) {
		for (unsigned i = 0; i < LINUX_AGENT_SEMCHUNK; i++) {
			linux_agent_sem_t *s = &c->lass_sem[i];
			uintptr_t addr = (uintptr_t)__atomic_load_n(&s->las_addr, __ATOMIC_ACQUIRE);

			if (addr == 0 || !__atomic_load_n(&s->las_applied, __ATOMIC_ACQUIRE))
				continue;
			/* The records are in the arena's read-only part: the
			 * agent leaves las_applied as it is.  Only one release
			 * runs here (the agent's thread, once its consumer is
			 * gone and can no longer take one back itself). */
			if (child)
				sem_release_child(addr);
			else
				sem_release_shared(addr);
		}
	}
}
