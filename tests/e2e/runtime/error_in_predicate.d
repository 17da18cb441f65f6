#pragma D option quiet

BEGIN
/ *(int *)0 == 1 /
{
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
