profile:::tick-1s
{
	trace(args[2]);
}
