#pragma D option quiet

BEGIN
{
	printf("a");
	printf("b");
	printf("%d", 1);
	printf("\n");
	exit(0);
}
