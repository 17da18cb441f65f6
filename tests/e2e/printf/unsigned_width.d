#pragma D option quiet

BEGIN
{
	printf("%8u|%-8x|\n", 7, 255);
	exit(0);
}
