/* userland is a keyword in D's expressions: it names no variable */
BEGIN
{
	userland = 1;
}
