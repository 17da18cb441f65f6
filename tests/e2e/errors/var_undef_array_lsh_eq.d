BEGIN
{
	seen[execname] <<= 1;
}
