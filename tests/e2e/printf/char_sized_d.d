#pragma D option quiet

BEGIN
{
	printf("%d %d\n", (char)-1, (short)-2);
	exit(0);
}
