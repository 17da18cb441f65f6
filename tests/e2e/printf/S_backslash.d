#pragma D option quiet

BEGIN
{
	printf("%S\n", "a\\b");
	exit(0);
}
