#pragma D option quiet

BEGIN
{
	printf("%d %d\n", index("hello", "l"), index("hello", "z"));
	exit(0);
}
