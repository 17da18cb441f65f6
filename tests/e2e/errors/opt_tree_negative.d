/* -x tree=-4: negative, refused as DTrace refuses it (atoi() <= 0). */
BEGIN
{
	exit(0);
}
