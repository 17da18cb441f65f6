#pragma D option quiet
#pragma D option dynvarsize=64

/* 64 bytes cannot hold 20 elements: the store that fails drops the clause */
BEGIN
{
	a[1] = 1; a[2] = 2; a[3] = 3; a[4] = 4; a[5] = 5;
	a[6] = 6; a[7] = 7; a[8] = 8; a[9] = 9; a[10] = 10;
	a[11] = 11; a[12] = 12; a[13] = 13; a[14] = 14; a[15] = 15;
	a[16] = 16; a[17] = 17; a[18] = 18; a[19] = 19; a[20] = 20;
	printf("not reached\n");
}

BEGIN
{
	printf("a[20] = %d\n", a[20]);
	exit(0);
}
