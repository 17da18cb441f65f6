#pragma D option quiet

BEGIN
{
	p = (char *)alloca(32);
	p[0] = 'a';
	p[1] = 'b';
	p[2] = 'c';
	n = 3;
	tracemem(p, 32, n);
	tracemem(p, 4, 100);
	exit(0);
}
