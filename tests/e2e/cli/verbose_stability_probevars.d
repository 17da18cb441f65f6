/*
 * A description naming no provider is Unstable/Unstable/Common; one naming
 * profile and a probe name is Evolving/Evolving/Common (profile's provider
 * and name parts).  probename and probefunc take the attributes of their
 * part of the probe's provider: dtrace's name is Stable, profile's function
 * Private/Private/Unknown.
 */
BEGIN
{
	trace(probename);
}

profile:::tick-1sec
{
	trace(probefunc);
}
