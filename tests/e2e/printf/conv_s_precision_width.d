#pragma D option quiet

BEGIN
{
	printf("[%8.3s]\n", "abcdef");
	exit(0);
}
