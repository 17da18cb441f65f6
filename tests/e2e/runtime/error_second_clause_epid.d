#pragma D option quiet

BEGIN
{
	printf("clause one\n");
}

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
