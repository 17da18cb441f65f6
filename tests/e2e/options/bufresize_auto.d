BEGIN
{
	printf("auto\n");
	exit(0);
}
