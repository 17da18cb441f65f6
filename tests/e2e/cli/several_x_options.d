BEGIN
{
	printf("[%s]\n", "truncated");
	exit(0);
}
