BEGIN
{
	trace(copyinstr("/etc/passwd"));
}
