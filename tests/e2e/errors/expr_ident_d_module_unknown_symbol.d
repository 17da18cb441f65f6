BEGIN
{
	trace(D`nothere);
}
