struct pair { int lo; int hi; };

translator struct pair < long v > {
	lo = v & 0xffff;
	hi = v >> 16;
};

BEGIN
{
	/* a translated pointer alone is no value a statement can compute */
	xlate<struct pair *>(0x10002);
}
