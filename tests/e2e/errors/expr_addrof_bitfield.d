struct s { int a; int bf : 3; };

BEGIN
{
	y = &((struct s *)0)->bf;
}
