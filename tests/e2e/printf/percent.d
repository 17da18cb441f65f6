#pragma D option quiet

BEGIN
{
	printf("100%% and %d%%\n", 50);
	exit(0);
}
