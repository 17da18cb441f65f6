#pragma D option quiet
#pragma D option dynvarsize=64

/* Each clause's failing store drops that clause: two drops in all. */
BEGIN
{
	a[1] = 1; a[2] = 2; a[3] = 3; a[4] = 4; a[5] = 5;
	a[6] = 6; a[7] = 7; a[8] = 8; a[9] = 9; a[10] = 10;
	a[11] = 11; a[12] = 12; a[13] = 13; a[14] = 14; a[15] = 15;
	a[16] = 16; a[17] = 17; a[18] = 18; a[19] = 19; a[20] = 20;
}

BEGIN
{
	b[1] = 1; b[2] = 2; b[3] = 3; b[4] = 4; b[5] = 5;
	b[6] = 6; b[7] = 7; b[8] = 8; b[9] = 9; b[10] = 10;
	b[11] = 11; b[12] = 12; b[13] = 13; b[14] = 14; b[15] = 15;
	b[16] = 16; b[17] = 17; b[18] = 18; b[19] = 19; b[20] = 20;
}

BEGIN
{
	printf("a[20] = %d, b[20] = %d\n", a[20], b[20]);
	exit(0);
}
