/*
 * isa/x86_64/jump.c: jump-patched probes on x86_64 (isa.h "Jump-patched
 * probes").  The jump is `jmp rel32` (e9, 5 bytes, +-2 GiB).  The
 * trampoline, position-independent:
 *
 *	lea	-128(%rsp), %rsp	skip the red zone (lea leaves the flags)
 *	pushfq
 *	push	%rax, %rcx, %rdx, %rbx, %rbp, %rsi, %rdi, %r8 .. %r15
 *	mov	%rsp, %rbx		the frame: r15 lowest, as isa_regs.h
 *	and	$-64, %rsp
 *	sub	$512, %rsp
 *	fxsave64 (%rsp)			x87, MXCSR and %xmm0-15: a compiled
 *					entry may use SSE (not AVX, which
 *					leaves the upper halves alone)
 *	mov	%rbx, %rdi		entry(frame, site)
 *	movabs	$site, %rsi
 *	movabs	$entry, %rax
 *	cld				the ABI's direction flag for a call
 *	call	*%rax
 *	fxrstor64 (%rsp)
 *	mov	%rbx, %rsp
 *	pop	%r15 .. %r8, %rdi, %rsi, %rbp, %rbx, %rdx, %rcx, %rax
 *	popfq
 *	lea	128(%rsp), %rsp
 *	<the replaced instructions>
 *	jmp	*0(%rip)		back to site + copylen
 *	.quad	site + copylen
 *
 * The stack pointer at the call is 64-byte aligned, so entry starts with
 * the ABI's alignment.  Freestanding: kernel modules build every file here
 * but insn_decode.c.
 */
#include "isa.h"

const size_t isa_jump_len = 5;
const uint64_t isa_jump_reach = 0x7fffffffULL;

/* The frame's registers, lowest address first (pushed in reverse). */
static const unsigned char frame_reg[16] = {
    ISA_REG_R15, ISA_REG_R14, ISA_REG_R13, ISA_REG_R12, ISA_REG_R11, ISA_REG_R10,
    ISA_REG_R9,	 ISA_REG_R8,  ISA_REG_RDI, ISA_REG_RSI, ISA_REG_RBP, ISA_REG_RBX,
    ISA_REG_RDX, ISA_REG_RCX, ISA_REG_RAX, ISA_REG_RFL,
};

#define FRAME_WORDS 16
#define RED_ZONE 128

static size_t
put(uint8_t *buf, size_t n, const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[n + i] = bytes[i];
	return n + len;
}

static size_t
put64(uint8_t *buf, size_t n, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		buf[n + (size_t)i] = (uint8_t)(v >> (8 * i));
	return n + 8;
}

size_t
isa_jump_tramp(uintptr_t site, const uint8_t *copy, size_t copylen, uintptr_t entry,
	       uint8_t *buf, size_t bufsz, size_t *copy_off)
{
	static const uint8_t head[] = {
	    0x48, 0x8d, 0x64, 0x24, 0x80,		/* lea -128(%rsp),%rsp */
	    0x9c,					/* pushfq */
	    0x50, 0x51, 0x52, 0x53, 0x55, 0x56, 0x57,	/* push rax rcx rdx rbx rbp rsi rdi */
	    0x41, 0x50, 0x41, 0x51, 0x41, 0x52, 0x41, 0x53, /* push r8 .. r11 */
	    0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, /* push r12 .. r15 */
	    0x48, 0x89, 0xe3,				/* mov %rsp,%rbx */
	    0x48, 0x83, 0xe4, 0xc0,			/* and $-64,%rsp */
	    0x48, 0x81, 0xec, 0x00, 0x02, 0x00, 0x00,	/* sub $512,%rsp */
	    0x48, 0x0f, 0xae, 0x04, 0x24,		/* fxsave64 (%rsp) */
	    0x48, 0x89, 0xdf,				/* mov %rbx,%rdi */
	    0x48, 0xbe,					/* movabs $site,%rsi */
	};
	static const uint8_t call[] = {
	    0xfc,	/* cld */
	    0xff, 0xd0, /* call *%rax */
	    0x48, 0x0f, 0xae, 0x0c, 0x24, /* fxrstor64 (%rsp) */
	    0x48, 0x89, 0xdc,		  /* mov %rbx,%rsp */
	    0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, /* pop r15 .. r12 */
	    0x41, 0x5b, 0x41, 0x5a, 0x41, 0x59, 0x41, 0x58, /* pop r11 .. r8 */
	    0x5f, 0x5e, 0x5d, 0x5b, 0x5a, 0x59, 0x58,	/* pop rdi rsi rbp rbx rdx rcx rax */
	    0x9d,					/* popfq */
	    0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00, /* lea 128(%rsp),%rsp */
	};
	static const uint8_t back[] = {0xff, 0x25, 0x00, 0x00, 0x00, 0x00}; /* jmp *0(%rip) */
	static const uint8_t movabs_rax[] = {0x48, 0xb8};
	size_t need = sizeof(head) + 8 + sizeof(movabs_rax) + 8 + sizeof(call) + copylen +
		      sizeof(back) + 8;
	size_t n = 0;

	if (copylen == 0 || copylen > ISA_INSN_MAXLEN * 2 || bufsz < need)
		return 0;
	n = put(buf, n, head, sizeof(head));
	n = put64(buf, n, site);
	n = put(buf, n, movabs_rax, sizeof(movabs_rax));
	n = put64(buf, n, entry);
	n = put(buf, n, call, sizeof(call));
	*copy_off = n;
	n = put(buf, n, copy, copylen);
	n = put(buf, n, back, sizeof(back));
	return put64(buf, n, (uint64_t)site + copylen);
}

size_t
isa_jump_insn(uintptr_t site, uintptr_t tramp, uint8_t *buf, size_t bufsz)
{
	int64_t rel = (int64_t)(tramp - (site + isa_jump_len));

	if (bufsz < isa_jump_len || rel > (int64_t)0x7fffffff || rel < -(int64_t)0x80000000LL)
		return 0;
	buf[0] = 0xe9;
	for (int i = 0; i < 4; i++)
		buf[1 + i] = (uint8_t)((uint64_t)rel >> (8 * i));
	return isa_jump_len;
}

void
isa_jump_frame_regs(const uint64_t *frame, uintptr_t site, isa_regs_t *regs)
{
	for (unsigned i = 0; i < ISA_NREGS; i++)
		regs->r[i] = 0;
	for (unsigned i = 0; i < FRAME_WORDS; i++)
		regs->r[frame_reg[i]] = frame[i];
	regs->r[ISA_REG_RSP] = (uint64_t)(uintptr_t)(frame + FRAME_WORDS) + RED_ZONE;
	regs->r[ISA_REG_RIP] = site; /* segment registers: the port's (0 here) */
}
