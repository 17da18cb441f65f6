struct s { int a; int bf : 3; };

BEGIN
{
	y = offsetof(struct s, bf);
}
