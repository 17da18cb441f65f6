struct s { int a; };

BEGIN
{
	y = ((struct s *)0)->nosuch;
}
