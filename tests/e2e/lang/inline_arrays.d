/*
 * Inline arrays: inline T name[T1 p1, T2 p2] = expression.  A use
 * name[e1, e2] is the expression with each parameter standing for its
 * subscript, which is evaluated where the parameter is used (twice if it
 * is used twice, not at all if it is not).  An inline array of an integer
 * constant is that constant, as any inline of a constant is.
 */
#pragma D option quiet

inline int plus_one[int v] = v + 1;
inline int area[int w, int h] = w * h;
inline string shout[string s] = strjoin(s, "!");
inline int twice[int v] = v + v;
inline int ignore[int v] = 7;
inline int first[int a, int b] = a;

BEGIN
{
	printf("%d %d %d\n", plus_one[41], area[3, 4], area[plus_one[1], 5]);
	printf("%s\n", shout["hello"]);
	i = 0;
	x = twice[i++];
	printf("%d %d\n", x, i);
	j = 0;
	printf("%d %d\n", ignore, first[10, j++]);
	printf("%d\n", j);
	exit(0);
}
