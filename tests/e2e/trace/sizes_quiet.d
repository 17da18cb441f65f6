#pragma D option quiet

BEGIN
{
	trace((char)-2);
	trace(" ");
	trace((short)-2);
	trace(" ");
	trace(-2);
	trace(" ");
	trace((long long)-2);
	trace("\n");
	exit(0);
}
