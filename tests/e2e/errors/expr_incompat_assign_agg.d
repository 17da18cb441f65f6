/* a new variable would take the aggregation's dynamic type: named by its kind */
BEGIN
{
	@c = count();
	x = @c;
}
