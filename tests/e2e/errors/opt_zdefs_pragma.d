#pragma D option zdefs
/* zdefs from the program lets the unmatched description through */
nosuchprovider:::
{
	trace(1, 2);
}
