/* an int variable cannot hold a stack */
int x;

BEGIN
{
	x = stack();
}
