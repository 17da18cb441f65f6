BEGIN
{
	printf("to -o\n");
	exit(0);
}
