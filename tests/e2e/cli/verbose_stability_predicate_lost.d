/*
 * Where DTrace's statements keep no predicate attributes: a clause whose
 * actions use a variable its predicate creates is cooked predicate first,
 * and its actions' attributes then replace the clause's (dt_cook_clause);
 * a clause without actions is one Stable/Stable/Common statement
 * (dt_compile_one_clause).  curthread counts in neither.
 */
dtrace:::BEGIN
/(x = curthread) != 0/
{
	trace(x);
}

dtrace:::END
/curthread != 0/
{
}
