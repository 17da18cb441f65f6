/*
 * Declaring a variable again with the same type is allowed: the same CTF
 * type in DTrace (a typedef, a pointer, a struct), unlike a second array
 * declarator (errors/decl_idred_array_twice).
 */
#pragma D option quiet

typedef int arr_t[3];
arr_t a;
arr_t a;
int *p;
int *p;
struct s { int x; };
struct s v;
struct s v;

BEGIN
{
	a[1] = 7;
	v.x = 2;
	printf("%d %d\n", a[1], v.x);
	exit(0);
}
