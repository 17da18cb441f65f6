#pragma D option quiet

tick-1h
{
	@c = count();
}

BEGIN
{
	printa("never %@d\n", @c);
	printf("nothing printed for an empty aggregation\n");
	exit(0);
}
