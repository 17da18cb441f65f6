#pragma D option quiet

BEGIN
{
	printf("%c%c%c\n", 104, 'i', 33);
	exit(0);
}
