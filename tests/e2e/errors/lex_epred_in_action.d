BEGIN
{
	half = 10 / /* by two */ 2;
	exit(0);
}
