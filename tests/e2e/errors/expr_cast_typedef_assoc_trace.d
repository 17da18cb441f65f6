/* a cast to a void typedef is valid; tracing its void value is not */
typedef int t[int];

BEGIN
{
	trace((t)1);
}
