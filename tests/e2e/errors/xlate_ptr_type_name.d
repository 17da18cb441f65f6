struct pair { int lo; int hi; };

translator struct pair < long v > {
	lo = v & 0xffff;
	hi = v >> 16;
};

BEGIN
{
	/* the operand's type is named as DTrace names a translated pointer */
	exit(xlate<struct pair *>(7));
}
