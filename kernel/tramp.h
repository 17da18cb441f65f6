/*
 * kernel/tramp.h: trampolines (port.h dtrace_port_tramp_alloc) carved in
 * 16-byte steps from chunks of executable kernel memory the OS gives: a
 * kernel backend keeps a ktramp_t, optionally starting with a chunk it
 * already has (memory in its own text, near the kernel's), and supplies
 * the function that gets the next chunk.  Nothing is given back: a thread
 * may still be running a trampoline after its probe is gone.  Freestanding,
 * like the core: it includes only core/dtrace.h.  Not probe context; the
 * caller serializes (the providers' lock).
 */
#ifndef DTRACE_KERNEL_TRAMP_H
#define DTRACE_KERNEL_TRAMP_H

#include "dtrace.h"

typedef struct ktramp {
	uintptr_t kt_base;    /* the chunk being carved, 0 for none yet */
	size_t kt_size;	      /* its size */
	size_t kt_used;	      /* bytes of it handed out */
	size_t kt_chunk_size; /* the size of the chunks kt_chunk gets */
	/* A new zeroed executable chunk of kt_chunk_size bytes, or 0. */
	uintptr_t (*kt_chunk)(void);
} ktramp_t;

/*
 * A first chunk of `size` bytes (a literal) in the module's own text, page
 * aligned, named `name`: where the kernel linker put the module, which for
 * an amd64 module built -mcmodel=kernel is within reach of the kernel's
 * text (a %rip-relative copy still addresses its byte).  At file scope.
 */
#define KTRAMP_POOL(name, size)                                                                    \
	__asm__(".pushsection .text.dtrace_tramp,\"ax\",%progbits\n"                              \
		".globl " #name "\n.p2align 12\n" #name ":\n.fill " #size ",1,0\n.popsection\n"); \
	extern char name[]

/* len bytes (rounded up to 16) for a kernel trampoline: 0, or
 * DTRACE_EINVAL for another address space or a length no chunk holds,
 * DTRACE_ENOMEM when the OS has no chunk. */
int ktramp_alloc(ktramp_t *kt, void *as, size_t len, uintptr_t *addr);

#endif /* DTRACE_KERNEL_TRAMP_H */
