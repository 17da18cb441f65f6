/* The preprocessor has run before a pragma is read: stdc is refused there. */
#pragma D option stdc=a
BEGIN
{
	exit(0);
}
