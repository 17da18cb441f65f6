#pragma D option quiet

BEGIN
{
	printf("[%*d]\n", -5, 42);
	exit(0);
}
