#pragma D option quiet

BEGIN
{
	printf("%i\n", -9);
	exit(0);
}
