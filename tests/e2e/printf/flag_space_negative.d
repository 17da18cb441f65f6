#pragma D option quiet

BEGIN
{
	printf("[% d][% d]\n", 5, -5);
	exit(0);
}
