/* print() of scalars: the type's name, a blank, the value; integers in
   hex (negative ones as their two's complement of the type's size), chars
   quoted (octal when not printable), enums by name or number, strings
   quoted without brackets.  Each value ends its line. */
#pragma D option quiet

enum state { IDLE = 1, BUSY = 2 };
typedef long counter_t;

BEGIN
{
	print(0);
	print(1);
	print(-1);
	print((short)-2);
	print((uint64_t)0xdeadbeefcafe);
	print((counter_t)255);
	print((char)65);
	print((char)0);
	print((char)1);
	print((char)-1);
	print((unsigned char)65);
	print(BUSY);
	print((enum state)IDLE);
	print((enum state)7);
	print("a string");
	printf("\n");
	print("");
	printf("\n");
	print((void *)0);
	print((int *)16);
	exit(0);
}
