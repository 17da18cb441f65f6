/* -x nolibs: the library directories are not read. */
BEGIN
{
	printf("%d\n", answer);
	exit(0);
}
