/* an inline array is used with its subscripts, never alone */
inline int sq[int n] = n * n;

BEGIN
{
	trace(sq);
}
