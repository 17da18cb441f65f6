#pragma D option quiet

BEGIN
{
	printf("%u\n", 4000000000);
	exit(0);
}
