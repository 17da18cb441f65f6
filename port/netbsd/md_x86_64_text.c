/*
 * port/netbsd/md_x86_64_text.c: writing kernel text on amd64 (port.h §4).
 *
 * NetBSD 7.99 maps kernel text read-only and honours it in ring 0 through
 * CR0.WP, so the store is made with this CPU's interrupts off and WP clear,
 * both restored at once (later NetBSD packages the same steps as
 * x86_patch_window_open/close).  x86 keeps instruction caches coherent
 * with stores; a cross-call then runs CPUID, a serializing instruction, on
 * every CPU, as the processor manuals ask of code modified under another
 * CPU's feet.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <machine/cpufunc.h>
#include <machine/specialreg.h>
#include <machine/vmparam.h>

#include "netbsd_impl.h"

static void
dtnb_serialize(void *arg)
{
	uint32_t regs[4];

	(void)arg;
	x86_cpuid(0, regs);
}

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	u_long psl, cr0;

	if (as != NULL)
		return DTRACE_ENOTSUP;
	if (addr < VM_MIN_KERNEL_ADDRESS || addr + len < addr)
		return DTRACE_EINVAL;
	psl = x86_read_psl();
	x86_disable_intr();
	cr0 = rcr0();
	lcr0(cr0 & ~(u_long)CR0_WP);
	memcpy((void *)addr, bytes, len);
	lcr0(cr0);
	x86_write_psl(psl);
	dtrace_port_xcall(DTRACE_CPU_ALL, dtnb_serialize, NULL);
	return 0;
}
