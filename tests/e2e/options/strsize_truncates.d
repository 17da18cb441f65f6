#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	printf("[%s]\n", "abcdefghij");
	exit(0);
}
