/* an enumerator is its constant: a tuple after it is no associative array */
enum colour { RED, GREEN };

BEGIN
{
	trace(GREEN[1, 2]);
}
