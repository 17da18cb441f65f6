/*
 * tests/isa/sites_sample.c: functions whose probe sites the objdump test
 * compares, compiled once per variant (optimization, frame pointer, CET)
 * with SITES_SUFFIX naming the variant, and linked into the test so every
 * call and jump is resolved.  Each function is here for a shape the site
 * walk must get right: leaf, frame pointer, loop, tail call (jmp out of
 * the function), a switch the compiler turns into a jump table, multiple
 * returns, a stack frame large enough for sub $imm32,%rsp, a tail call
 * through a function pointer.
 */
#include "sites_sample.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define F(name) CAT(name, SITES_SUFFIX)

int
F(leaf_add)(int a, int b)
{
	return a + b;
}

long
F(sum_loop)(const long *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i] * 3 + (v[i] >> 2);
	return s;
}

int
F(tail_call)(int x)
{
	return sites_helper_a(x + 1);
}

int
F(cond_tail)(int x, int y)
{
	if (x > y)
		return sites_helper_b(x - y);
	return sites_helper_a(y);
}

int
F(dispatch)(int op, int a, int b)
{
	switch (op) {
	case 0:
		return a + b;
	case 1:
		return a - b;
	case 2:
		return a * b;
	case 3:
		return sites_helper_a(b);
	case 4:
		return a << (b & 31);
	case 5:
		return a >> (b & 31);
	case 6:
		return a & b;
	case 7:
		return a | b;
	case 8:
		return sites_helper_b(a);
	default:
		return -1;
	}
}

int
F(early_returns)(const char *s)
{
	int n = 0;

	if (s == 0)
		return -1;
	while (*s != 0) {
		if (*s == '!')
			return n;
		n += *s++ == 'a';
	}
	return n * 2;
}

long
F(big_frame)(int k)
{
	volatile long buf[600];
	long s = 0;
	int i;

	for (i = 0; i < 600; i++)
		buf[i] = i * k;
	for (i = 0; i < 600; i += 7)
		s += buf[i];
	return s + sites_helper_a((int)s);
}

int
F(recurse)(int n)
{
	if (n <= 1)
		return 1;
	return n * F(recurse)(n - 1) + sites_helper_b(n);
}

int
F(indirect_tail)(int (*fn)(int), int x)
{
	return fn(x + 3);
}

int
F(dispatch_dense)(unsigned op, int a)
{
	switch (op) {
	case 0:
		return a + 11;
	case 1:
		return a * 13;
	case 2:
		return a ^ 0x1234;
	case 3:
		return sites_helper_a(a);
	case 4:
		return a << 3;
	case 5:
		return a - 77;
	case 6:
		return ~a;
	case 7:
		return a | 0x100;
	case 8:
		return sites_helper_b(a);
	case 9:
		return a * a;
	case 10:
		return a / 7;
	case 11:
		return a % 9;
	default:
		return 0;
	}
}
