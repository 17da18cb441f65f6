#pragma D option quiet

BEGIN
{
	printf("[%3c][%-3c]\n", 66, 67);
	exit(0);
}
