#pragma D option quiet

BEGIN
{
	printf("%s\n", "the quick brown fox jumps over the lazy dog");
	exit(0);
}
