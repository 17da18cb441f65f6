#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}

END
{
	printf("END runs after an error\n");
}
