#pragma D option quiet

/*
 * bcopy()'s destination must be scratch space, alloca()'s: DTrace's
 * DIF_SUBR_BCOPY refuses any other destination ("no other region is
 * allowed", dtrace_inscratch()), a string variable's storage included, with
 * an invalid address fault; a variable that holds alloca()ed space is fine.
 */
string s;

BEGIN
{
	p = alloca(4);
	bcopy("xyz", p, 4);
	printf("%s\n", stringof(p));
}

BEGIN
{
	s = "abc";
	bcopy("xyz", s, 4);
	printf("not reached\n");
}

BEGIN
{
	printf("s is still %s\n", s);
	exit(0);
}
