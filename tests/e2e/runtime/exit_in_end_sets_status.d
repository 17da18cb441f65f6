#pragma D option quiet

BEGIN
{
	exit(2);
}

END
{
	printf("END\n");
	exit(9);
}
