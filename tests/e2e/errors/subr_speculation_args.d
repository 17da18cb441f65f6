BEGIN
{
	s = speculation(1);
}
