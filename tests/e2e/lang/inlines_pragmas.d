/* Inline constants and expressions, typed declarations read before they
   are assigned, and the #pragma D directives DTrace accepts in a program. */
#pragma D option quiet
#pragma D option bufsize=64k
#pragma D depends_on provider dtrace
#pragma D attributes Evolving/Evolving/Common provider dtrace provider
#pragma D binding "1.0" ANSWER

inline int ANSWER = 42;
inline int TWICE = ANSWER * 2;
inline string NAME = "inline";
inline int ARGPLUS = arg1 + 1;

long l;
string s;

BEGIN
{
	printf("%d %d %s %d\n", ANSWER, TWICE, NAME, ARGPLUS);
	printf("%d [%s] %d %d\n", l, s, sizeof (l), sizeof (ANSWER));
	exit(0);
}
