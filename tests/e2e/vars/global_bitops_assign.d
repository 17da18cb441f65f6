#pragma D option quiet

int never;

BEGIN
{
	x = 0xf0;
	x |= 1;
	x &= 0x31;
	x ^= 0x10;
	x <<= 2;
	printf("%x\n", x);
	exit(0);
}
