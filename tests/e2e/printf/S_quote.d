#pragma D option quiet

BEGIN
{
	printf("%S\n", "\"q\"");
	exit(0);
}
