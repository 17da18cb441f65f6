BEGIN
{
	speculate(speculation());
	speculate(speculation());
	exit(0);
}
