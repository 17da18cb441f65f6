#pragma D option quiet

BEGIN
{
	printf("plain text\n");
	exit(0);
}
