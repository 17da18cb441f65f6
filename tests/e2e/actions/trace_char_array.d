#pragma D option quiet

BEGIN
{
	trace(probeprov);
	trace("|");
	trace(probename);
	trace("\n");
	exit(0);
}
