BEGIN
{
	trace(index("haystack", "st", 0, 1));
}
