BEGIN
{
	printf("arguments: %s %s %s\n", $$1, $$2, $$3);
	exit(0);
}
