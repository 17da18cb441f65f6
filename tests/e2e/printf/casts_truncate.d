#pragma D option quiet

BEGIN
{
	printf("%d %d\n", (char)257, (short)65538);
	exit(0);
}
