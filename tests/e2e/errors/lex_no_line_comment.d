// a line comment, which D does not have
BEGIN
{
	exit(0);
}
