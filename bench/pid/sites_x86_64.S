/*
 * bench/pid/sites_x86_64.S: the function pidbench calls, written out so
 * that every probe the benchmark places meets a known instruction and so
 * a known way of stepping it (isa/x86_64/insn_step.c):
 *
 *   entry   push %rbp                 emulated
 *   +0x4    lea 0x1(%rdi),%rax        out of line: trampoline, jump back
 *   +0x8    addq $1,bench_calls(%rip) RIP-relative, out of line with a
 *                                     scratch register: a second trap at
 *                                     the trampoline's closing int3
 *   +0x10   mov bench_calls(%rip),%rdx  a RIP-relative load: emulated
 *                                     (a nofault load), one trap
 *   return  ret                       emulated
 *
 * bench_fn(x) returns x + 1 and counts its calls in bench_calls, so the
 * program can check that each call ran whole.  bench_fn_offsets holds the
 * offsets of the three middle sites, which pidbench prints (-o) for the
 * driver's pid$target:a.out:bench_fn:<offset> probes; bench_fn_ool,
 * bench_fn_rip and bench_fn_load name the same instructions for bpftrace,
 * whose Debian build has no offset probes.
 */
	.text
	.p2align 4
	.globl bench_fn
	.type bench_fn, @function
bench_fn:
	pushq %rbp
	movq %rsp, %rbp
.Lool:
	.type bench_fn_ool, @function
bench_fn_ool:
	leaq 1(%rdi), %rax
.Lrip:
	.type bench_fn_rip, @function
bench_fn_rip:
	addq $1, bench_calls(%rip)
.Lload:
	.type bench_fn_load, @function
bench_fn_load:
	movq bench_calls(%rip), %rdx
	popq %rbp
	ret
	.size bench_fn, .-bench_fn
	.size bench_fn_ool, .-bench_fn_ool
	.size bench_fn_rip, .-bench_fn_rip
	.size bench_fn_load, .-bench_fn_load

/*
 * bench_trap: one breakpoint and back, for the floor under any trap-based
 * probe: the kernel's SIGTRAP delivery to bench_trap_handler and its
 * sigreturn.  x86's int3 leaves the PC after itself, so the handler has
 * nothing to do.
 */
	.p2align 4
	.globl bench_trap
	.type bench_trap, @function
bench_trap:
	int3
	ret
	.size bench_trap, .-bench_trap

	.p2align 4
	.globl bench_trap_handler
	.type bench_trap_handler, @function
bench_trap_handler:
	ret
	.size bench_trap_handler, .-bench_trap_handler

	.section .rodata
	.p2align 3
	.globl bench_fn_offsets
	.type bench_fn_offsets, @object
bench_fn_offsets:
	.quad .Lool - bench_fn
	.quad .Lrip - bench_fn
	.quad .Lload - bench_fn
	.size bench_fn_offsets, .-bench_fn_offsets

	.bss
	.p2align 3
	.globl bench_calls
	.type bench_calls, @object
bench_calls:
	.zero 8
	.size bench_calls, 8

	.section .note.GNU-stack, "", @progbits
