BEGIN
{
	printf("%s %s\n", $$1, $$2);
	exit(0);
}
