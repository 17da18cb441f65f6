/* a second inline of the name of an inline array names the first one's kind */
inline int sq[int n] = n * n;
inline int sq = 4;

BEGIN
{
	exit(0);
}
