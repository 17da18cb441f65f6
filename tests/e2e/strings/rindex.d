#pragma D option quiet

BEGIN
{
	printf("%d\n", rindex("hello", "l"));
	exit(0);
}
