BEGIN
{
	printf("script\n");
}
