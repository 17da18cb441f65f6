#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("hello", -3));
	exit(0);
}
