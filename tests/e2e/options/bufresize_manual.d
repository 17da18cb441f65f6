BEGIN
{
	printf("manual\n");
	exit(0);
}
