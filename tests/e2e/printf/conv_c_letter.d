#pragma D option quiet

BEGIN
{
	printf("[%c]\n", 65);
	exit(0);
}
