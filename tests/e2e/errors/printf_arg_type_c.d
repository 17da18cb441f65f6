BEGIN
{
	printf("%c\n", timestamp);
	exit(0);
}
