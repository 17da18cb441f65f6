#pragma D option quiet

BEGIN
{
	exit(0);
}

END
{
	printf("first END\n");
}

END
{
	printf("second END\n");
}
