#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=16

BEGIN
{
	trace("rawbytes");
	exit(0);
}
