char *p;

BEGIN
{
	/* copyinstr() takes an address as uintptr_t: a pointer needs a cast */
	trace(copyinstr(p));
}
