#pragma D option quiet

int never;

BEGIN
{
	n["x"] = 1;
	n["y"] = 2;
	printf("%d %d\n", n["x"], n["y"]);
	exit(0);
}
