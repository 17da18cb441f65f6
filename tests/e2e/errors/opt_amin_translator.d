/*
 * A translator declaration is a node of Stable/Stable/Common, checked
 * against -x amin where the declaration ends, named by its types; this one
 * has no member whose expression would be refused first.
 */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *p > {
};

BEGIN
{
}
