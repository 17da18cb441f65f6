/* a _symaddr key and a _usymaddr key do not match */
BEGIN
{
	@k[mod(arg0)] = count();
	@u[umod(arg0)] = count();
}

END
{
	printa(@k, @u);
}
