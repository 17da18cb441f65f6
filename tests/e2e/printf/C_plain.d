#pragma D option quiet

BEGIN
{
	printf("[%C]\n", 120);
	exit(0);
}
