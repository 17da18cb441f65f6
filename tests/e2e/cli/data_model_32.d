/*
 * -32: the D program is compiled for the ILP32 data model, as DTrace's
 * dtrace -32 asks dtrace_open() for it: long, pointers and the types of
 * their size are 32 bits, long long and int64_t stay 64.
 */
BEGIN
{
	printf("%d %d %d %d %d %d\n", sizeof (long), sizeof (unsigned long), sizeof (void *),
	    sizeof (uintptr_t), sizeof (long long), sizeof (int64_t));
	printf("%d %d\n", (long)0x1ffffffff, sizeof (0x100000000));
	exit(0);
}
