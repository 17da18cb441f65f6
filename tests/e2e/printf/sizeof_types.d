#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", sizeof (char), sizeof (short), sizeof (int), sizeof (long long));
	exit(0);
}
