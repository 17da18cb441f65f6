#pragma D option quiet

BEGIN
{
	printf("%x\n", htonl(0x12345678));
	exit(0);
}
