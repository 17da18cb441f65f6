#pragma D option quiet

BEGIN
{
	printf("%s %d\n", 1 > 2 ? "yes" : "no", 0 ? 10 : 20);
	exit(0);
}
