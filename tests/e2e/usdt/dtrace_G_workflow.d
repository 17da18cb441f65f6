/* The probes dtrace -G linked into dtgprog, with their arguments. */
usdtg$target:::start
{
	printf("%s %s %s %d %s\n", probemod, probefunc, probename, arg0, copyinstr(arg1));
}

usdtg$target:::local-fn
{
	printf("%s %s %d\n", probefunc, probename, args[0]);
}

usdtg$target:::many
{
	printf("%s %d %d %d %d %d %d %d %d\n", probename, arg0, arg1, arg2, arg3, arg4, arg5,
	    arg6, arg7);
}

usdtg$target:::state
{
	printf("%s %d %s\n", probename, args[0]->gi_count, args[0]->gi_name);
}

usdtg$target:::done
{
	printf("%s total %d n %d\n", probename, args[0], args[1]);
}
