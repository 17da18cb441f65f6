usdtprog$target:::guarded
{
	@[pid == $target ? "parent" : "child", arg0] = count();
}

END
{
	printa("fired in the %s, argument %d: %@d\n", @);
}
