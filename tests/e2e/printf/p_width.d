#pragma D option quiet

BEGIN
{
	printf("[%8p]\n", 0xab);
	exit(0);
}
