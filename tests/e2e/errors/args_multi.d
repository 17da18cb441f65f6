/* BEGIN, END and ERROR: the dtrace provider names its probes Stable, so an empty name is unstable */
dtrace:::
{
	trace(args[0]);
}
