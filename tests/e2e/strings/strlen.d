#pragma D option quiet

BEGIN
{
	printf("%d %d\n", strlen("hello"), strlen(""));
	exit(0);
}
