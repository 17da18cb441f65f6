#pragma D option quiet

BEGIN
{
	printf("BEGIN\n");
}

tick-10ms
{
	printf("tick\n");
	exit(0);
}

END
{
	printf("END\n");
}
