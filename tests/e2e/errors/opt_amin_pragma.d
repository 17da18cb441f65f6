/*
 * #pragma D option amin sets the minimum for its own program: htons() is
 * Evolving/Evolving/Common, a function.
 */
#pragma D option amin=Stable/Stable/Common

dtrace:::BEGIN
{
	trace(htons(1));
}
