struct out { int x; };
translator struct out < int v > { x = v; };

BEGIN
{
	y = &xlate<struct out *>(1);
}
