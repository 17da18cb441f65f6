BEGIN
{
	--timestamp;
}
