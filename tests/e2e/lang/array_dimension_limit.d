/*
 * An array dimension may be anything up to UINT_MAX, as in DTrace
 * (D_DECL_ARRBIG is for larger ones): such types can be measured even
 * where no variable of them could be stored.
 */
#pragma D option quiet

struct blob {
	char head[3000000000];
	int tail;
};

BEGIN
{
	printf("%d %d\n", sizeof (char[4294967295]), offsetof(struct blob, tail));
	exit(0);
}
