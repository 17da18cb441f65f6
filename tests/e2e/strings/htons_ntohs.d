#pragma D option quiet

BEGIN
{
	printf("%x %x\n", htons(0x1234), ntohs(0x1234));
	exit(0);
}
