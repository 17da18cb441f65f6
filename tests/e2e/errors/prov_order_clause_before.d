/* Providers are checked in program order with the clauses: an earlier clause's error comes first */
BEGIN
{
	trace(y);
}

provider p {
	probe a(int);
	probe a(int);
};
