#pragma D option quiet

BEGIN
{
	printf("[%*.*d]\n", 8, 4, 42);
	exit(0);
}
