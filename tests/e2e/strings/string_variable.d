#pragma D option quiet

BEGIN
{
	s = "var"; printf("%s\n", s);
	exit(0);
}
