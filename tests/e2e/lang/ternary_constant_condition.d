/*
 * A ?: whose condition is an integer constant DTrace's parser folds keeps only
 * the branch it chooses, and the other is never checked: it may have any type
 * or name nothing at all.  sizeof is folded later, so it does not count
 * (errors/expr_incompat_ternary_sizeof).
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", 1 ? "string" : 2);
	printf("%d\n", (2 - 2) ? "string" : 2);
	printf("%d\n", 0 ? undefined_name : 5);
	printf("%s\n", (char)256 ? "nonzero" : "zero");
	printf("%d\n", !0 && 3 > 2 ? 10 : nothing[1]);
	printf("%d\n", -1 < 0 ? (1 ? 7 : "x") : this->never);
	x = 1 ? 2 : 3LL;
	printf("sizeof %d\n", sizeof(x));
	exit(0);
}
