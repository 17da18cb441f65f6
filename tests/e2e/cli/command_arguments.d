END
{
	printf("the command ended\n");
}
