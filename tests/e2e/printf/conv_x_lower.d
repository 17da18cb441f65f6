#pragma D option quiet

BEGIN
{
	printf("%x\n", 0xabcdef);
	exit(0);
}
