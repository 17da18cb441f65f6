/*
 * Two libraries that depend on each other: DTrace's topological sort finds
 * the back edge and the compilation fails, naming the library depended on
 * first and then the one that depends on it.
 */
BEGIN
{
	exit(0);
}
