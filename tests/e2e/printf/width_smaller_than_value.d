#pragma D option quiet

BEGIN
{
	printf("[%2d]\n", 12345);
	exit(0);
}
