BEGIN
{
	printf("pid %d\n", execname);
	exit(0);
}
