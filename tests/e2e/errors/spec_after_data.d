BEGIN
{
	printf("first\n");
	speculate(speculation());
}
