#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	printf("the next clause runs\n");
	exit(0);
}
