/* %a takes kernel addresses and _symaddr keys, not a _usymaddr */
BEGIN
{
	@u[usym(arg0)] = count();
}

END
{
	printa("%a %@d\n", @u);
}
