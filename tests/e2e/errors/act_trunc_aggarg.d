BEGIN
{
	trunc(execname, 10);
}
