/*
 * Casts of integer constants fold as DTrace's dt_cast: narrowing keeps the
 * low bytes and zero-fills the rest of the 64-bit value, widening
 * sign-extends only a signed source, a cast to the same size changes the
 * type alone; a constant assigned is first converted to the variable's
 * size.  trace() prints a value from its type's bytes, so (char)0x1ff
 * traces 255 (DTrace prints 1- and 2-byte values unsigned), and the
 * comparisons see the folded 64-bit values.
 */
#pragma D option quiet

BEGIN
{
	trace((char)0x1ff); printf(" ");
	trace((unsigned char)-1); printf(" ");
	trace((short)0x18000); printf(" ");
	trace((long long)(char)-1); printf(" ");
	trace((short)(char)-1); printf(" ");
	trace((int)0x1ffffffff); printf(" ");
	trace((unsigned long long)(char)-1); printf("\n");

	printf("%d %d %d %d\n", (char)0x1ff == -1, (char)0x1ff == 255, (short)0x18000 < 0,
	    (short)0x18000 == 0x8000);
	printf("%d %d %d %d\n", (long long)(char)-1 == -1, (short)(char)-1 == 0xffff,
	    (unsigned int)-1 == 0xffffffff, (long)(unsigned char)-1 == 255);

	x = 1;
	x = 0x1ffffffff;
	printf("%d %d %d\n", x, x == -1, x == 0xffffffff);
	exit(0);
}
