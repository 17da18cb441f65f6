/*
 * -x tree (DTrace's parse-tree dump) is not implemented: it is refused as
 * an unknown option rather than accepted and ignored.
 */
BEGIN
{
	exit(0);
}
