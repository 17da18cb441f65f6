#pragma D option quiet

BEGIN
{
	trace((void *)0x1234);
	trace("\n");
	exit(0);
}
