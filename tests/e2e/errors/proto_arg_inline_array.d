/* a subscript must suit its parameter's type */
inline int sq[int n] = n * n;

BEGIN
{
	trace(sq["two"]);
}
