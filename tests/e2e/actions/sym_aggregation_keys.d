#pragma D option quiet

BEGIN
{
	@s[sym(0ULL), mod(0ULL)] = count();
	@u[usym(0ULL), umod(0ULL), uaddr(0ULL)] = sum(3);
	exit(0);
}
