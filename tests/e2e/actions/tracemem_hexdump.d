#pragma D option quiet

BEGIN
{
	p = (char *)alloca(20);
	p[0] = 'D';
	p[1] = 'T';
	p[2] = 'r';
	p[3] = 'a';
	p[4] = 'c';
	p[5] = 'e';
	p[16] = 0x7f;
	p[17] = 0x1f;
	tracemem(p, 20);
	exit(0);
}
