struct s { int a; int bf : 3; };

BEGIN
{
	y = sizeof (((struct s *)0)->bf);
}
