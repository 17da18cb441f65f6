#pragma D option quiet

BEGIN
{
	printf("%s\n", toupper("MiXeD 1"));
	exit(0);
}
