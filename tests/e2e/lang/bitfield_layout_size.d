/*
 * The size of a D struct or union with bit-fields, as DTrace's libctf
 * computes it: a bit-field's type is an integer of its width rounded up to
 * 1, 2, 4 or 8 bytes, the next member starts after the bits actually used,
 * and a struct ends with the whole type of its last member.  So a 33-bit
 * field at the end takes 8 bytes, and can be read and written in full.
 */
#pragma D option quiet

struct tail { unsigned int x:2; unsigned int y:31; unsigned long z:33; };
struct one { int a:3; };
struct nine { int a:9; };
struct wide_then_char { long w:20; char c; };
union u { int a:3; char b; };
union v { long a:17; char b; };

struct tail t;

BEGIN
{
	printf("%d %d %d %d %d %d\n", sizeof (struct tail), sizeof (struct one),
	    sizeof (struct nine), sizeof (struct wide_then_char), sizeof (union u),
	    sizeof (union v));
	printf("%d\n", offsetof(struct wide_then_char, c));
	t.x = 3;
	t.y = 0x7fffffff;
	t.z = 0x1ffffffff;
	printf("%u %u %u\n", t.x, t.y, t.z);
	exit(0);
}
