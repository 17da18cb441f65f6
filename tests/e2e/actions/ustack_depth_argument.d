#pragma D option quiet

BEGIN
{
	ustack(1);
	printf("after one frame\n");
	exit(0);
}
