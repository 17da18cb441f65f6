BEGIN
{
	system("echo never");
}
