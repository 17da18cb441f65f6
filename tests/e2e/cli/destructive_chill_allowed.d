BEGIN
{
	chill(1000000);
	printf("chilled\n");
	exit(0);
}
