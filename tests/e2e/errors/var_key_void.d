BEGIN
{
	names[(void)0] = execname;
}
