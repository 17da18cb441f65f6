struct s { int a; };

BEGIN
{
	y = (struct s)1;
}
