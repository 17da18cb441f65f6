/*
 * A library whose dependency is a file of the library path that is not one
 * of the libraries (not a .d file): DTrace's dependency graph has no node
 * for it and the compilation fails.
 */
BEGIN
{
	exit(0);
}
