/* ...and a provider before a clause is checked before it */
provider p {
	probe a(int);
	probe a(int);
};

BEGIN
{
	trace(y);
}
