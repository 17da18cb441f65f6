#pragma D option quiet

BEGIN
{
	printf("dropped with the faulting clause\n");
	trace(*(int *)0);
}

BEGIN
{
	printf("kept\n");
	exit(0);
}
