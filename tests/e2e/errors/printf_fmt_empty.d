BEGIN
{
	printf("");
	exit(0);
}
