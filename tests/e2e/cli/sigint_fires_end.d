#pragma D option quiet

BEGIN
{
	@totals["k"] = sum(5);
	printf("ready\n");
}

END
{
	printf("END fired\n");
}
