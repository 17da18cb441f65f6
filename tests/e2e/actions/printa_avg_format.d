#pragma D option quiet

BEGIN
{
	@a = avg(1);
	@a = avg(2);
	@a = avg(6);
	printa("avg %@d\n", @a);
	exit(0);
}
