#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d\n", 10 / x);
}

BEGIN
{
	exit(0);
}
