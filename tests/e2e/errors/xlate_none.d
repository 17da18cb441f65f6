struct out { int x; };

BEGIN
{
	y = xlate<struct out>(1).x;
}
