BEGIN
{
	printf("run\n");
	exit(0);
}
