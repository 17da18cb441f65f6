BEGIN
{
	setopt("quiet", 1, 2);
}
