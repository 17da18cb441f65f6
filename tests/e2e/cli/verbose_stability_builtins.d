/*
 * -v -e: the least stability of the probe descriptions and of the
 * statements.  dtrace:::BEGIN names the dtrace provider (Stable provider
 * and probe names; its module and function, Private, are left empty); pid
 * and execname are Stable/Stable/Common, curthread's data is Private and
 * htons() is Evolving/Evolving/Common: the statements' minimum is
 * Evolving/Private/Common.
 */
dtrace:::BEGIN
/pid != 0/
{
	trace(execname);
	trace(curthread);
	trace(htons(1));
}
