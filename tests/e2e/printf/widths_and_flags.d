#pragma D option quiet

BEGIN
{
	printf("|%5d|%-5d|%05d|%+d|% d|\n", 42, 42, 42, 42, 42);
	exit(0);
}
