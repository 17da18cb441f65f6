/*
 * A library's #pragma D attributes gives its inline the attributes the
 * program's statements then have: Evolving/Evolving/Common.
 */
dtrace:::BEGIN
{
	trace(lib_stamp);
}
