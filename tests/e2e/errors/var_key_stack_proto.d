/* an integer key cannot be given a stack */
BEGIN
{
	b[1] = 1;
	x = b[stack()];
}
