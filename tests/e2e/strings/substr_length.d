#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("hello world", 0, 5));
	exit(0);
}
