BEGIN
{
	system("");
}
