/* -S: each DIFO as DTrace lists it when assembled, then -e stops */
int n;

BEGIN
/n == 0 && execname != ""/
{
	self->s = strjoin(execname, "!");
	@counts[probename, pid] = count();
	printf("%s %d\n", self->s, n++);
	exit(0);
}
