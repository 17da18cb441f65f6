#pragma D option quiet

BEGIN
{
	printf("%#x %#o %#X\n", 255, 8, 255);
	exit(0);
}
