#pragma D option quiet

BEGIN
{
	printf("[%05d]\n", -42);
	exit(0);
}
