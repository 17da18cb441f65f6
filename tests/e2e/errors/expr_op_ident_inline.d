struct s { int a; int k; };
inline int k = 3;

BEGIN
{
	y = ((struct s *)0)->k;
}
