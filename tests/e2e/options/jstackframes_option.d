BEGIN
{
	printf("jstackframes\n");
	exit(0);
}
