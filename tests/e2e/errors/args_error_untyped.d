/*
 * DTrace's dtrace provider describes no probe arguments: ERROR's values are
 * arg0..arg5, and args[] is out of range for it.
 */
dtrace:::ERROR
{
	x = args[1];
}
