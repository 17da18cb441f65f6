#pragma D option quiet

BEGIN
{
	printf("a=%d, b=%s, c=%x.\n", 1, "two", 3);
	exit(0);
}
