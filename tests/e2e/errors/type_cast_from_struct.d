struct s { int a; };

BEGIN
{
	y = (int)*(struct s *)0;
}
