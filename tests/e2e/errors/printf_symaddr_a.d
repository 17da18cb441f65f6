/* %a takes a _symaddr, but sym() has no value as a printf() argument */
BEGIN
{
	printf("%a\n", sym(arg0));
}
