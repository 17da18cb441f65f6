#pragma D option quiet

BEGIN
{
	printf("%a\n", 16);
	exit(0);
}
