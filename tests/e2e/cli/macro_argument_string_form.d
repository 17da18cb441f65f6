BEGIN
{
	printf("[%s]\n", $$1);
	exit(0);
}
