#pragma D option quiet

BEGIN
{
	printf("%o\n", 511);
	exit(0);
}
