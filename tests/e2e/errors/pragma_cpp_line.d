/* errors after -C name the script's own lines */
#define TWICE(x) ((x) * 2)

BEGIN
{
	trace(TWICE("x"));
}
