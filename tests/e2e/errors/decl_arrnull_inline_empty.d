/* [] gives an inline array no parameters to stand for its subscripts */
inline int table[] = 1;

BEGIN
{
	exit(0);
}
