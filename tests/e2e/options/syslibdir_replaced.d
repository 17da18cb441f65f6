/* -x syslibdir names the system's library directory instead of /usr/lib/dtrace. */
BEGIN
{
	printf("%d\n", answer);
	exit(0);
}
