BEGIN
{
	printf("first script\n");
}
