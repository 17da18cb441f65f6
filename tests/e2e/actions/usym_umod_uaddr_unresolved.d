BEGIN
{
	usym(0ULL);
	umod(0ULL);
	uaddr(0ULL);
	exit(0);
}
