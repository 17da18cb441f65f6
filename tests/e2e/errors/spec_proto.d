BEGIN
{
	speculate();
}
