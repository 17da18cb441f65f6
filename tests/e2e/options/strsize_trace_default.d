#pragma D option strsize=8

BEGIN
{
	trace("abcdefghij");
	exit(0);
}
