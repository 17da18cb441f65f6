/*
 * Integer constants take DTrace's types (dt_node_int): the first of int,
 * unsigned int, long, unsigned long, long long, unsigned long long that
 * holds the value, from where the suffix starts, decimal constants (and
 * those suffixed with a lower-case u) skipping every other one.
 */
#pragma D option quiet

BEGIN
{
	printf("%llx %llx %llx %llX\n", 1ULL, 0xffffffffffffffffULL, 0x7fffffffffffffffLL, 255ull);
	print(1);
	print(1U);
	print(1L);
	print(1UL);
	print(1LL);
	print(1ULL);
	print(0x80000000);
	print(2147483648);
	print(0x100000000U);
	print(0x100000000u);
	print(0xffffffffLL);
	print(0x8000000000000000LL);
	print(0777);
	print('a');
	/* the signedness of the wider operand decides a comparison */
	printf("%d %d %d %d %d %d %d %d\n", -1 < 1U, -1 < 1L, -1LL < 1ULL, -1 < 0xffffffff,
	    -1 < 4294967295, -1 < 0x100000000U, -1 < 0x100000000u, -1L < 1U);
	exit(0);
}
