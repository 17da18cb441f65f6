#pragma D option quiet

BEGIN
{
	printf("%d\n", (unsigned char)200);
	exit(0);
}
