BEGIN
{
	exit("done");
}
