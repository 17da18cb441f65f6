BEGIN
{
	chill("a while");
}
