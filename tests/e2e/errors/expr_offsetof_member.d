struct s { int a; };

BEGIN
{
	y = offsetof(struct s, nosuch);
}
