/* clauses are checked in order: the aggregation is made only by the later clause */
END
{
	printa(@late);
}

BEGIN
{
	@late = count();
}
