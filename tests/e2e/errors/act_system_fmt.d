BEGIN
{
	cmd = "date";
	system(cmd);
}
