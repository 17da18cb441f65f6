#pragma D option quiet

/* printa's %k takes a stack() key; %d the integer key beside it */
BEGIN
{
	@[stack(2), 7] = count();
	printa("%k|%d|%@d\n", @);
	exit(0);
}
