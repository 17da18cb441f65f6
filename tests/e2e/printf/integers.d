#pragma D option quiet

BEGIN
{
	printf("%d %i %u %x %X %o\n", 42, 42, 42, 255, 255, 8);
	exit(0);
}
