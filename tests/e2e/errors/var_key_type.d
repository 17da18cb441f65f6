BEGIN
{
	names[pid] = execname;
	trace(names["self"]);
}
