#pragma D option quiet

BEGIN
{
	printf("%s\n", strstr("hello world", "wor"));
	exit(0);
}
