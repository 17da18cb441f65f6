/*
 * Integer results take DTrace's dt_type_promote types, not C's: nothing is
 * promoted to int first, the operand of higher rank (width in bits, plus one
 * when unsigned) gives its type, an enum counts as int, and a shift has its
 * left operand's type.  A char plus a char is a char, so its record holds one
 * byte: 200 + 100 traces as 44, and 100 + 100 kept in a char prints as -56.
 */
#pragma D option quiet

enum e { A = 1 };
BEGIN
{
	this->c = (char)100;
	this->uc = (unsigned char)200;
	this->s = (short)1000;
	printf("%d %d %d %d\n", sizeof((char)1 + (char)2), sizeof(this->s + this->c), sizeof(this->c << 4), sizeof(A + this->c));
	printf("%d %d %d\n", sizeof(1L + 1LL), sizeof(this->uc * this->c), sizeof(this->c - 1));
	x = this->c + this->c;
	printf("%d %d\n", sizeof(x), x);
	trace(this->uc + this->c);
	printf("\n%d\n", sizeof(this->uc + this->c));
	exit(0);
}
