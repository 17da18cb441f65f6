BEGIN
{
	printf("before\n");
	system("echo during");
	printf("after\n");
	exit(0);
}
