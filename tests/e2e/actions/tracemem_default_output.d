BEGIN
{
	p = (char *)alloca(8);
	p[0] = 'x';
	tracemem(p, 8);
	exit(0);
}
