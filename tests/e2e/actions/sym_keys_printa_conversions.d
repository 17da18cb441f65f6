/*
 * printa's %a takes sym() and mod() keys, %A usym(), umod() and uaddr()
 * keys; a mod or umod key prints its module.  The addresses are int 0s,
 * recorded as 64-bit addresses, that name no symbol.
 */
#pragma D option quiet

BEGIN
{
	@k[sym(0), mod(0)] = count();
	@u[usym(0), umod(0), uaddr(0)] = count();
	exit(0);
}

END
{
	printa("%a %a %@d\n", @k);
	printa("%A %A %A %@d\n", @u);
}
