#pragma D option quiet
#pragma D option droptags
#pragma D option nspec=1
#pragma D option dynvarsize=64

/* -x droptags: each drop message starts with its kind, as DTRACEDROP_* names it. */
BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	x[1] = 1; x[2] = 2; x[3] = 3; x[4] = 4; x[5] = 5;
	x[6] = 6; x[7] = 7; x[8] = 8; x[9] = 9; x[10] = 10;
	x[11] = 11; x[12] = 12; x[13] = 13; x[14] = 14; x[15] = 15;
	x[16] = 16; x[17] = 17; x[18] = 18; x[19] = 19; x[20] = 20;
}

BEGIN
{
	printf("%d %d\n", a, b);
	exit(0);
}
