/*
 * -x stdc=s: K&R C, which predates __STDC__; cpp preprocesses the
 * traditional way (# does not make a string of a macro argument).
 */
#define	STR(x)	#x
#ifdef __STDC__
#define	MODE	"iso"
#else
#define	MODE	"k&r"
#endif
BEGIN
{
	trace(MODE);
	exit(0);
}
