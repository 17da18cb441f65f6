#pragma D option quiet

BEGIN
{
	printf("discarded\n");
	ftruncate();
	printf("kept\n");
	exit(0);
}
