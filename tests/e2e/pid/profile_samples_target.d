profile-997
/pid == $target/
{
	@[ufunc(arg1)] = count();
}

tick-2s
{
	printa("%A\n", @);
	exit(0);
}
