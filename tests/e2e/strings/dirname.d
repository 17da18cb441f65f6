#pragma D option quiet

BEGIN
{
	printf("%s %s\n", dirname("/usr/lib/libc.so"), dirname("file"));
	exit(0);
}
