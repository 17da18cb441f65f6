#pragma D option quiet

BEGIN
{
	printf("%S\n", "a\tb\"c");
	exit(0);
}
