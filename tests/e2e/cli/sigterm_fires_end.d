#pragma D option quiet

BEGIN
{
	@n = count();
	printf("ready\n");
}

END
{
	printf("END after SIGTERM\n");
}
