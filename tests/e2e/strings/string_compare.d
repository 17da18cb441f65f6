#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", "abc" == "abc", "abc" < "abd", "b" > "a");
	exit(0);
}
