/* Clauses with several probe descriptions, empty and globbed fields,
   predicates; each description of a clause gets the clause's actions. */
#pragma D option quiet

dtrace:::BEGIN,
dtrace:::END
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
}

:::BEGIN
{
	printf("empty fields\n");
}

dtrace::*:BEG*
{
	printf("glob\n");
}

BEGIN
/0/
{
	printf("never\n");
}

BEGIN
/n++ == 0 && probename == "BEGIN"/
{
	printf("predicate %d\n", n);
}

BEGIN
/n == 1/
{
	exit(0);
}
