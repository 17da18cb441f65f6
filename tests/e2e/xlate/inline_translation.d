/*
 * An inline may stand for a translation, as DTrace's curpsinfo does: its
 * declared type names the translator's output, through a pointer or not,
 * and each use translates the members it reads.
 */
#pragma D option quiet

struct reading {
	int raw;
};

struct celsius {
	int deg;
	int tenths;
};

translator struct celsius < struct reading *r > {
	deg = r->raw / 10;
	tenths = r->raw % 10;
};

struct reading *cur;

inline struct celsius *now = xlate<struct celsius *>(cur);
inline struct celsius whole = xlate<struct celsius>(cur);

BEGIN
{
	cur = (struct reading *)alloca(sizeof (struct reading));
	cur->raw = 215;
	printf("%d.%d\n", now->deg, now->tenths);
	cur->raw = 187;
	printf("%d.%d\n", whole.deg, whole.tenths);
	exit(0);
}
