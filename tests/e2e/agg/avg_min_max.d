#pragma D option quiet

BEGIN
{
	@a = avg(2);
	@a = avg(4);
	@a = avg(9);
	@mn = min(4);
	@mn = min(-2);
	@mx = max(4);
	@mx = max(11);
	exit(0);
}
