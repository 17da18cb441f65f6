/*
 * port/netbsd/md_aarch64_text.c: writing kernel text on aarch64 (port.h §4).
 *
 * NetBSD's fbt writes aarch64 text with the debugger's db_write_bytes()
 * (ddb/db_access.h), which knows how to reach a read-only kernel mapping,
 * and then makes the instruction fetch see the new word.  7.99 declares no
 * cache maintenance KPI for aarch64 (there is no machine/cpufunc.h), so the
 * architecture's sequence is written out: clean the data cache line to the
 * point of unification, invalidate the instruction cache line, and
 * synchronise (DC CVAU, DSB ISH, IC IVAU, DSB ISH, ISB), for every line
 * the bytes touch; the inner-shareable barriers reach every CPU.
 * db_write_bytes exists only in kernels with DDB.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <machine/db_machdep.h>
#include <ddb/db_access.h>
#include <machine/vmparam.h>

#include "netbsd_impl.h"

/* The smallest cache line of any aarch64 implementation. */
#define DTNB_LINE 16

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	uintptr_t a;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	if (addr < VM_MIN_KERNEL_ADDRESS || addr + len < addr)
		return DTRACE_EINVAL;
	db_write_bytes((db_addr_t)addr, len, bytes);
	for (a = addr & ~(uintptr_t)(DTNB_LINE - 1); a < addr + len; a += DTNB_LINE)
		__asm__ volatile("dc cvau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
	for (a = addr & ~(uintptr_t)(DTNB_LINE - 1); a < addr + len; a += DTNB_LINE)
		__asm__ volatile("ic ivau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish\n\tisb" : : : "memory");
	return 0;
}
