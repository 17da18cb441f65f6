/* DTrace's enumerator_list takes no comma after the last enumerator (C99 does) */
enum colour { RED, GREEN, BLUE, };

BEGIN
{
	exit(0);
}
