#pragma D option quiet

int never;

BEGIN
{
	g = "text";
	printf("%s\n", g);
	exit(0);
}
