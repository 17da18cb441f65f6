/*
 * Two directories with a z_base.d: the one named first is loaded, the
 * other skipped, and the dependency of a_uses.d is found in it too.
 */
BEGIN
{
	printf("%d %d\n", answer, twice);
	exit(0);
}
