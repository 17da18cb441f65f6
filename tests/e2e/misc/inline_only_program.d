/*
 * A program of inlines and a translator but no clause is not empty to
 * DTrace: its parse tree holds their nodes (D_EMPTY is for a translation
 * unit of nothing, or of variable and type declarations only).  It compiles
 * to no probes, which -e accepts.
 */
inline int LIMIT = 10;
struct in { int a; };
struct out { int b; };
translator struct out < struct in *p > { b = p->a; };
