#pragma D option quiet

BEGIN
{
	trace(1);
	trace(-5);
	trace("\n");
	exit(0);
}
