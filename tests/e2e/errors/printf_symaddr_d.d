/* %d takes integers, and a _symaddr is not one */
BEGIN
{
	printf("%d\n", sym(arg0));
}
