inline int limit = 8;

BEGIN
{
	trace(limit(1));
}
