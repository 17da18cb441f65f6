/*
 * -L adds a D library directory: its libraries' declarations are known to
 * every program, and a library comes after those it depends on.
 */
BEGIN
{
	this->x = (answer_t)1;
	printf("%d %d %d\n", answer, twice, this->x);
	exit(0);
}
