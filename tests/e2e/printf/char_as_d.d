#pragma D option quiet

BEGIN
{
	printf("%d\n", 'a');
	exit(0);
}
