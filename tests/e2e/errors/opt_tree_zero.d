/* -x tree takes a positive number, as DTrace's dt_opt_tree(): 0 is refused. */
BEGIN
{
	exit(0);
}
