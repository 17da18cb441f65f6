/* Every C operator with C's precedence and associativity, ?:, the comma
   operator, compound assignment, ++ and --. */
#pragma D option quiet

BEGIN
{
	a = 7;
	b = 3;
	printf("%d %d %d %d %d\n", a + b * 2, (a + b) * 2, a - b - 1, a / b * b, a % b);
	printf("%d %d %d %d %d\n", 1 << 2 + 1, a & 6 | 1, a ^ b & 1, ~a, -a + +b);
	printf("%d %d %d %d %d %d\n", a < b, a <= 7, a > b == 1, a >= 8, a == 7, a != 7);
	printf("%d %d %d %d\n", a && b || 0, !a || b, 0 ^^ 1, 1 ^^ 1);
	printf("%d %d\n", a > b ? a : b, a < b ? 1 : b > 2 ? 2 : 3);
	c = (a, b);
	printf("%d\n", c);
	a += 2;
	printf("%d ", a);
	a -= 1;
	printf("%d ", a);
	a *= 3;
	printf("%d ", a);
	a /= 4;
	printf("%d ", a);
	a %= 4;
	printf("%d ", a);
	a <<= 3;
	printf("%d ", a);
	a >>= 1;
	printf("%d ", a);
	a &= 6;
	printf("%d ", a);
	a |= 9;
	printf("%d ", a);
	a ^= 5;
	printf("%d\n", a);
	x = 5;
	printf("%d %d %d %d %d\n", x++, x, ++x, x--, --x);
	printf("%d %d\n", -7 / 2, -7 % 2);
	/* constants fold as DTrace's parser does: a cast to the same size keeps all 64 bits */
	printf("%d %u\n", -16 >> 2, (unsigned int)-16 >> 28);
	exit(0);
}
