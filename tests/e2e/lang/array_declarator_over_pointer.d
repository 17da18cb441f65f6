/*
 * DTrace's parser pushes an array declarator on top of every pointer read
 * before it, whatever the parentheses: int (*p)[3] declares what
 * int *p[3] does, an array of three pointers, and int (*a)[int] an
 * associative array whose values are int *.  A typedef of such a
 * declarator names DTrace's dynamic type, which no object may have.
 */
#pragma D option quiet

int (*ptrs)[3];
int (*grid)[2][3];
int (*assoc)[int];
struct holder {
	int (*member)[4];
};

BEGIN
{
	assoc[7] = (int *)0;
	ptrs[1] = (int *)8;
	printf("%d %d %d %d\n", sizeof (ptrs), sizeof (grid), sizeof (struct holder),
	    sizeof (int (*)[5]));
	printf("%d %d\n", (int)ptrs[1], assoc[7] == (int *)0);
	exit(0);
}
