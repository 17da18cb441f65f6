/*
 * #pragma D binding and attributes naming "translator" wait for the next
 * translator declaration, as DTrace's dt_xlator_create() applies them: they
 * are used, not "unused #pragma".  The translator's attributes are then its
 * members' (dt_cook_xlator), so the statement stays Stable/Stable/Common.
 */
#pragma D option quiet

struct in { int a; };
struct out { int b; };

#pragma D binding "1.0" translator
#pragma D attributes Private/Private/Unknown translator
translator struct out < struct in *p > {
	b = p->a * 2;
};

BEGIN
{
	this->in = (struct in *)alloca(sizeof (struct in));
	this->in->a = 21;
	printf("%d\n", xlate<struct out>(this->in).b);
	exit(0);
}
