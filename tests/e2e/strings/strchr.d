#pragma D option quiet

BEGIN
{
	printf("%s\n", strchr("a.b.c", '.'));
	exit(0);
}
