/* -X s preprocesses as K&R C did: no __STDC__. */
#ifndef __STDC__
#define	MODE	"k&r"
#endif
BEGIN
{
	trace(MODE);
	exit(0);
}
