BEGIN
{
	printf("hello\n");
	exit(0);
}
