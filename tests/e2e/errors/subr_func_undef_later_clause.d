BEGIN
{
	trace(never_assigned);
}

END
{
	report();
}
