/* Every form a SystemTap argument descriptor takes (see the .sh). */
usdtprog$target:::regs
{
	printf("%s %s %d %d %d %d %d\n", probefunc, probename, arg0, arg1, arg2, arg3, arg4);
}

usdtprog$target:::stack
{
	printf("%s %d %d %d\n", probename, arg0, arg1, arg2);
}

usdtprog$target:::consts
{
	printf("%s %d %d %x\n", probename, arg0, arg1, arg2);
}

usdtprog$target:::global,
usdtprog$target:::indexed
{
	printf("%s %d %d\n", probename, arg0, arg1);
}

/* past the five dtrace_probe() passes: the agent's argument fetch */
usdtprog$target:::many
{
	printf("%s %d %d %d %d %d %d %d %d %d %d %d %d\n", probename, arg0, arg1, arg2, arg3,
	    arg4, arg5, arg6, arg7, arg8, arg9, args[10], args[11]);
}

usdtprog$target:::string
{
	printf("%s %s %d\n", probename, copyinstr(arg0), arg1);
}
