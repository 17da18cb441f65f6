#pragma D option quiet

BEGIN
{
	printf("%X\n", 0xabcdef);
	exit(0);
}
