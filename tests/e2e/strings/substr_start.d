#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("hello world", 6));
	exit(0);
}
