#pragma D option quiet

BEGIN
{
	printf("first\n");
	exit(0);
}

BEGIN
{
	printf("second\n");
}

END
{
	printf("end\n");
}
