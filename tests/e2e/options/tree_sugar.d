/*
 * -x tree=12: each clause printed back as D once if/else has made plain
 * clauses of it (pass 4, DTrace's dt_printd), then the whole program as
 * it ends (pass 3): the if/else clause is now the clauses DTrace's
 * dt_compile_sugar() makes, after the dtrace:::ERROR clause that sets
 * self->%error; each as cooked.
 */
BEGIN
{
	x = 3;
}

BEGIN
/x > 1/
{
	if (x == 3) {
		printf("three\t\"%d\"\n", x);
	} else {
		y = 10u;
	}
	exit(0);
}
