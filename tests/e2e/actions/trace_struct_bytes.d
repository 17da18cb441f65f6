#pragma D option quiet

struct pair {
	int a;
	int b;
};

struct pair p;

BEGIN
{
	p.a = 0x41424344;
	p.b = 0x01020304;
	trace(p);
	exit(0);
}
