#pragma D option quiet

BEGIN
{
	printf("%lx\n", (long)255);
	exit(0);
}
