#pragma D option quiet

BEGIN
{
	printf("[%s][%10s][%-10s][%.2s]\n", "abc", "abc", "abc", "abc");
	exit(0);
}
