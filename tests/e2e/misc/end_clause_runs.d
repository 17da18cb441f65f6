#pragma D option quiet

BEGIN
{
	printf("begin\n");
	exit(0);
}

END
{
	printf("end\n");
}
