#pragma D option version=1.7
BEGIN
{
	trace(tolower("ABC"));
}
