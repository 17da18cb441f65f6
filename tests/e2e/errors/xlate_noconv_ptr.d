struct out { int x; int z; };
translator struct out < int v > { x = v; };

BEGIN
{
	y = xlate<struct out *>(1)->z;
}
