#pragma D option quiet

BEGIN
{
	trace("hello");
	trace("\n");
	exit(0);
}
