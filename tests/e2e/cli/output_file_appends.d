BEGIN
{
	printf("first line\n");
	printf("second line\n");
	exit(0);
}
