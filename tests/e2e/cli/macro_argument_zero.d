BEGIN
{
	printf("%s\n", $$0);
	exit(0);
}
