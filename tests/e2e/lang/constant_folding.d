/*
 * Operators on constants fold as DTrace's parser does (dt_node_op1,
 * dt_node_op2): on the 64-bit values, not narrowed to the result's type;
 * >> shifts logically even a signed value; a negated unsigned constant is
 * cut to its size; ! keeps its operand's type.  Values traced or printed
 * come from their type's bytes, comparisons see all 64 bits.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", ~0U == 0xffffffff, ~0U == 0xffffffffffffffff, -1U == 0xffffffff);
	printf("%d %d %d\n", 0x7fffffff + 1 < 0, 0x7fffffff + 1 == 0x80000000, -(char)0x1ff == 1);
	printf("%d %d %d\n", -16 >> 2, (-16 >> 2) < 0, (-16 >> 2) == 0x3ffffffffffffffc);
	printf("%d %d\n", sizeof (!0L), sizeof (!0));
	trace(0x7fffffff + 1);
	printf(" ");
	trace(~0U);
	printf("\n");
	exit(0);
}
