#pragma D option quiet

BEGIN
{
	speculate(0);
	printf("speculation 0 drops the clause's data\n");
}

BEGIN
{
	printf("after\n");
	exit(0);
}
