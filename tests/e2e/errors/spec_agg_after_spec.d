BEGIN
{
	speculate(1);
	@c[probefunc] = count();
}
