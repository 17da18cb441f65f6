/* the subscripts of an inline array are checked like the keys of an array */
inline int sq[int n] = n * n;

BEGIN
{
	trace(sq[1, 2]);
}
