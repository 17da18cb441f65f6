/*
 * A symbol of a module without type data (the C library's environ): DTrace
 * names it with the mark it was written with, `` here.
 */
BEGIN
{
	trace(libc.so.6``environ);
}
