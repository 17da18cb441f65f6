BEGIN
{
	sym(0ULL);
	mod(0ULL);
	exit(0);
}
