/*
 * -x tree=4: the program is printed as the compilation ends, failed or
 * not (DTrace's pass 3): the first clause as cooked, the second as parsed,
 * since its probe description matched nothing before it could be cooked;
 * then the error.
 */
BEGIN
{
	x = 1;
}

nosuch:::probe
{
	trace(x + 1);
}
