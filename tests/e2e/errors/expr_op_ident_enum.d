struct s { int a; int RED; };
enum color { RED, GREEN };

BEGIN
{
	y = (*(struct s *)0).RED;
}
