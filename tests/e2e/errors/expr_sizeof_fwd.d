BEGIN
{
	y = sizeof (struct nosuch);
}
