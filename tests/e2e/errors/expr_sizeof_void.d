BEGIN
{
	y = sizeof (void);
}
