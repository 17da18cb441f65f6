BEGIN
{
	trace(10 / /* by five */ 5);
	exit(0);
}
