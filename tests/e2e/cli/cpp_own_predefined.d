/*
 * cpp runs with its own names defined (DTrace passes it no -undef), next
 * to those DTrace adds for D: here the size of a long and of a char as
 * GNU cpp, the host's, says them.
 */
BEGIN
{
#if defined(__SIZEOF_LONG__) && defined(__CHAR_BIT__) && defined(__SUNW_D_64)
	printf("%d %d\n", __SIZEOF_LONG__, __CHAR_BIT__);
#else
	printf("no predefined names\n");
#endif
	exit(0);
}
