/* -x libdir is -L. */
BEGIN
{
	printf("%d\n", twice);
	exit(0);
}
