#pragma D option quiet

BEGIN
{
	i = 0;
}

tick-10ms
/++i == 5/
{
	printf("i=%d\n", i);
	exit(0);
}
