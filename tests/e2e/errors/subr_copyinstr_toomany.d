BEGIN
{
	trace(copyinstr(arg1, 64, 1));
}
