struct s { int a; };

BEGIN
{
	y = stringof(*(struct s *)0);
}
