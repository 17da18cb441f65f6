nosuchprovider:::
{
	trace(1);
}
