#pragma D option quiet

BEGIN
{
	printf("%s\n", cleanpath("/a/./b/../c//d"));
	exit(0);
}
