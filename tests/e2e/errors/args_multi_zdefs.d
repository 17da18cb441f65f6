/* -Z: a description matching nothing has no probe to type args[] */
nosuchprovider:::entry
{
	trace(args[0]);
}
