BEGIN
{
	printf("statusrate\n");
	exit(0);
}
