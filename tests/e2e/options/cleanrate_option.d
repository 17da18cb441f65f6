BEGIN
{
	printf("cleanrate\n");
	exit(0);
}
