/*
 * Where a member of a struct declared in D goes: DTrace's libctf aligns it
 * as ctf_type_align() says, which is not always what a C compiler does.
 * A nested struct is aligned like its first member only, a union like its
 * most aligned member, an array like its element (a string is an array
 * of char, so it is not aligned at all), an enum like an int, a bit-field
 * like the smallest power-of-two number of bytes holding it, and long
 * double to its size, 16.
 */
#pragma D option quiet

struct first_char { char tag; int value; };
struct holds_struct { char c; struct first_char inner; };
union small { char c; short s; };
struct holds_union { char c; union small u; };
struct first_bits { int flags:3; long value; };
struct holds_bits { char c; struct first_bits inner; };
enum colour { RED };
struct holds_enum { char c; enum colour e; };
struct holds_ldouble { char c; long double d; };
struct holds_string { char c; string s; int after; };
struct holds_array { char c; int a[2]; };

BEGIN
{
	printf("struct %d %d\n", offsetof(struct holds_struct, inner), sizeof (struct holds_struct));
	printf("union %d %d\n", offsetof(struct holds_union, u), sizeof (struct holds_union));
	printf("bit-field %d %d %d\n", offsetof(struct first_bits, value),
	    offsetof(struct holds_bits, inner), sizeof (struct holds_bits));
	printf("enum %d %d\n", offsetof(struct holds_enum, e), sizeof (struct holds_enum));
	printf("long double %d %d\n", offsetof(struct holds_ldouble, d), sizeof (struct holds_ldouble));
	printf("string %d %d %d\n", offsetof(struct holds_string, s),
	    offsetof(struct holds_string, after), sizeof (struct holds_string));
	printf("array %d %d\n", offsetof(struct holds_array, a), sizeof (struct holds_array));
	exit(0);
}
