BEGIN
{
	x = $;
}
