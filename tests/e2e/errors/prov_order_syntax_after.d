/* Providers are checked after the whole program parses: a later syntax error comes first */
provider p {
	probe a(int);
	probe a(int);
};

BEGIN
{
	x = ;
}
