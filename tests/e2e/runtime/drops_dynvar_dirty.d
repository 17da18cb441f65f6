#pragma D option quiet
#pragma D option dynvarsize=256

/*
 * Every element is deleted as soon as it is stored, so the store runs out
 * of free elements while the deleted ones wait, dirty, for the cleaner:
 * DTrace words those drops "with non-empty dirty list".
 */
BEGIN
{
	a[1] = 1; a[1] = 0; a[2] = 1; a[2] = 0; a[3] = 1; a[3] = 0;
	a[4] = 1; a[4] = 0; a[5] = 1; a[5] = 0; a[6] = 1; a[6] = 0;
	a[7] = 1; a[7] = 0; a[8] = 1; a[8] = 0; a[9] = 1; a[9] = 0;
	a[10] = 1; a[10] = 0; a[11] = 1; a[11] = 0; a[12] = 1; a[12] = 0;
	a[13] = 1; a[13] = 0; a[14] = 1; a[14] = 0; a[15] = 1; a[15] = 0;
	a[16] = 1; a[16] = 0; a[17] = 1; a[17] = 0; a[18] = 1; a[18] = 0;
	a[19] = 1; a[19] = 0; a[20] = 1; a[20] = 0; a[21] = 1; a[21] = 0;
	a[22] = 1; a[22] = 0; a[23] = 1; a[23] = 0; a[24] = 1; a[24] = 0;
	a[25] = 1; a[25] = 0; a[26] = 1; a[26] = 0; a[27] = 1; a[27] = 0;
	a[28] = 1; a[28] = 0; a[29] = 1; a[29] = 0; a[30] = 1; a[30] = 0;
	printf("not reached\n");
}

BEGIN
{
	printf("after\n");
	exit(0);
}
