BEGIN
{
	printf("%.*s\n");
	exit(0);
}
