/*
 * A program's own identifiers are Stable/Stable/Common until a #pragma D
 * attributes lowers them, before or after their declaration.  An inline
 * takes its expression's attributes, but one that is an integer constant
 * is that constant wherever it is used, Stable whatever a pragma says.
 * The statements' minimum is that of total (Evolving/Stable/ISA) and of
 * now (Unstable/Evolving/Common): Unstable/Evolving/ISA; x is Stable.
 */
#pragma D attributes Private/Private/Unknown limit
inline int limit = 10;
inline uint64_t now = timestamp;
#pragma D attributes Unstable/Evolving/Common now
int total;
#pragma D attributes Evolving/Stable/ISA total

dtrace:::BEGIN
{
	x = limit;
	total = x;
	trace(now);
}
