/* -x zdefs permits a description that matches nothing, not a broken program */
nosuchprovider:::entry
{
	trace(1, 2);
}
