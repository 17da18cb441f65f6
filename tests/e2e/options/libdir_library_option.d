/*
 * A library sets quiet: no "matched" notice, no CPU/ID heading, for this
 * program and the next.
 */
BEGIN
{
	trace(nine);
}
