BEGIN
{
	commit(1);
	printf("committed\n");
}
