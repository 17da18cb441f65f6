BEGIN
{
	printf("%s\n", pid);
	exit(0);
}
