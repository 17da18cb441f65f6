BEGIN
{
	names[pid] = execname;
	names[pid, tid] = execname;
}
