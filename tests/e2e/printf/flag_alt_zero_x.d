#pragma D option quiet

BEGIN
{
	printf("[%#06x]\n", 255);
	exit(0);
}
