#pragma D option quiet

BEGIN
{
	printf("%S\n", "a\nb");
	exit(0);
}
