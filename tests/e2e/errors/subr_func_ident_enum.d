/* an enumerator is its integer by the time the call is built */
enum e { FIRST, SECOND };
BEGIN
{
	SECOND(1);
}
