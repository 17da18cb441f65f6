BEGIN
/exit(0)/
{
	trace(1);
}
