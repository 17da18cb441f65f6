#pragma D option quiet
#pragma D option bufsize=2m
#pragma D option aggsize=512k
#pragma D option dynvarsize=1048576

BEGIN
{
	printf("sizes accepted\n");
	exit(0);
}
