/*
 * -x tree=5: an error DTrace's parser raises (offsetof of what is not a
 * struct, found as dt_node_offsetof() builds the node) leaves no tree to
 * print, neither after parsing nor as the compilation ends.
 */
BEGIN
{
	x = 1;
	y = offsetof(int, a);
}
