#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
	exit(0);
}
