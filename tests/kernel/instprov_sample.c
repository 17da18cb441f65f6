/*
 * tests/kernel/instprov_sample.c: functions for the fbt/kinst tests, built
 * with each kernel's module flags for each ISA (tests/kernel/CMakeLists.txt)
 * and linked at a kernel address.  Freestanding: no header, nothing but
 * what the compiler makes of it.  Between them they hold the shapes the
 * providers must get right: several returns, a tail call, a switch that
 * becomes a jump table, a loop, calls, %rip-relative data, a function
 * DTrace's own name keeps out, and a hand-written entry point without a
 * frame.
 */
int sample_counter;
static volatile int sample_sink;

__attribute__((noinline)) int
sample_leaf(int a, int b)
{
	return a * 3 + b;
}

__attribute__((noinline)) int
sample_early(int x)
{
	if (x < 0)
		return -1;
	if (x == 0)
		return sample_leaf(x, 1) + 7;
	for (int i = 0; i < x; i++)
		sample_sink += i;
	return sample_sink;
}

__attribute__((noinline)) int
sample_tail(int x)
{
	sample_counter++;
	return sample_leaf(x, x + 1); /* a tail call at -O2 */
}

__attribute__((noinline)) int
sample_switch(int k, int v)
{
	switch (k) {
	case 0:
		return v + 11;
	case 1:
		return v * 13;
	case 2:
		return v - 17;
	case 3:
		return v ^ 19;
	case 4:
		return sample_leaf(v, 23);
	case 5:
		return v << 3;
	case 6:
		return v | 29;
	case 7:
		return sample_counter + v;
	default:
		return 0;
	}
}

__attribute__((noinline)) long
sample_calls(long a, long b)
{
	long r = sample_leaf((int)a, (int)b);

	r += sample_early((int)(a - b));
	sample_counter += (int)r;
	return r + sample_counter;
}

__attribute__((noinline)) int
dtrace_sample_excluded(int x)
{
	return sample_leaf(x, 2) + sample_counter;
}

/* A hand-written entry point: no frame, as a trap vector has none. */
__asm__(".text\n"
	".globl sample_noframe\n"
	".type sample_noframe, %function\n"
	"sample_noframe:\n"
#if defined(__x86_64__)
	"	movq %rdi, %rax\n"
	"	addq $1, %rax\n"
	"	ret\n"
#elif defined(__aarch64__)
	"	add x0, x0, #1\n"
	"	ret\n"
#else
	"	addi a0, a0, 1\n"
	"	ret\n"
#endif
	".size sample_noframe, .-sample_noframe\n");
