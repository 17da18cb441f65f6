BEGIN
{
	printf("-b 64k\n");
	exit(0);
}
