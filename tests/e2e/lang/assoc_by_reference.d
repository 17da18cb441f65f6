/* Associative arrays of strings and structs: an element read before it is
   written is created empty (DTrace's epilogue: allocs, st?aa, ld?aa), so
   its members can be assigned in place. */
#pragma D option quiet

struct s {
	int x;
	int y;
};

struct s a[int];
self struct s t[string];

BEGIN
{
	b["x"] = "str";
	printf("[%s] [%s] %d\n", b["x"], b["absent"], strlen(b["absent"]));
	a[1].x = 5;
	a[1].y = a[1].x + 1;
	self->t["k"].y = 9;
	printf("%d %d %d %d %d\n", a[1].x, a[1].y, a[2].y, self->t["k"].x, self->t["k"].y);
	exit(0);
}
