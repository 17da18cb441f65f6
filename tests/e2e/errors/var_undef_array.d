BEGIN
{
	trace(counts["never"]);
}
