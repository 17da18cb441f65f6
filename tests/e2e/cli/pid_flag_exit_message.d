BEGIN
{
	printf("grabbed\n");
}
