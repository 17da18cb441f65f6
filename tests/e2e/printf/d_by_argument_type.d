/*
 * DTrace's compiler settles each %d by its argument's type: a signed value is
 * printed as %i (sign-extended from its own size), an unsigned one as %u, and
 * a %@d of printa as the aggregating function's result type (count() is
 * unsigned, sum() signed).  Flags and widths are kept.
 */
#pragma D option quiet

BEGIN
{
	this->c = (char)-3;
	this->uc = (unsigned char)253;
	printf("%d %d %d %d\n", this->c, this->uc, (short)-2, (unsigned short)65534);
	printf("%d %d %d\n", -16, (unsigned int)-16, (uint64_t)-1);
	printf("[%5d] [%-5d] [%05d] [%+d]\n", this->c, this->c, this->c, (char)3);
	printf("%i %u\n", this->c, this->c);
	@s = sum(-5);
	@c = count();
	@k[(char)-1] = count();
	printa("%@d %@d\n", @s, @c);
	printa("%d %@d\n", @k);
	exit(0);
}
