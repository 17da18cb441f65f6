#pragma D option quiet

BEGIN
{
	printf("[%C]\n", 9);
	exit(0);
}
