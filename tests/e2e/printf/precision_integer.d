#pragma D option quiet

BEGIN
{
	printf("[%.5d]\n", 42);
	exit(0);
}
