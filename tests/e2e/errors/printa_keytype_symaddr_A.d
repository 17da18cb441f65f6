/* %A takes a _usymaddr key, not a _symaddr */
BEGIN
{
	@k[func(arg0)] = count();
}

END
{
	printa("%A %@d\n", @k);
}
