#pragma D option quiet

BEGIN
{
	printf("%s-%s\n", "x", "y");
	exit(0);
}
