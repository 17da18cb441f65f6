#pragma D option quiet

BEGIN
{
	printf("%08X\n", 48879);
	exit(0);
}
