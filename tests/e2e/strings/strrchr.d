#pragma D option quiet

BEGIN
{
	printf("%s\n", strrchr("a.b.c", '.'));
	exit(0);
}
