#pragma D option quiet

BEGIN
{
	stack(2);
	printf("after two frames\n");
	exit(0);
}
