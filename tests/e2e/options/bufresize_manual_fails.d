/*
 * bufresize=manual: a principal buffer that cannot be allocated at the size
 * asked for fails the enabling instead of being made smaller.
 */
BEGIN
{
	exit(0);
}
