/* -Z lets the unmatched description compile: the error is the next one */
nosuchprovider:::entry
{
	trace();
}
