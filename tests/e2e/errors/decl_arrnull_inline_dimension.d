/* an inline cannot be an array with a dimension: only a tuple makes an inline array */
inline int table[4] = 1;

BEGIN
{
	exit(0);
}
