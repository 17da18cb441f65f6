#pragma D option quiet

BEGIN
{
	printf("%s\n", tolower("MiXeD 1"));
	exit(0);
}
