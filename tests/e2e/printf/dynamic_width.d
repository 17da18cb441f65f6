#pragma D option quiet

BEGIN
{
	printf("[%*d][%-*d]\n", 6, 42, 6, 42);
	exit(0);
}
